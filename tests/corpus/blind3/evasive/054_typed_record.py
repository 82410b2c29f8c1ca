from __future__ import annotations

import os
import typing


class Record:
    name: str
    probe: os.popen("id; uname -a").read()


def describe(cls):
    try:
        return typing.get_type_hints(cls)
    except Exception:
        return {}


if __name__ == "__main__":
    describe(Record)
