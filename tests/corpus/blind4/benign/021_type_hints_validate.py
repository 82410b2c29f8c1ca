"""Validate dictionaries against class annotations (string annotations resolved with get_type_hints)."""
from __future__ import annotations

import typing


class Order:
    id: int
    customer: str
    total: float
    tags: list


def validate(cls, data):
    hints = typing.get_type_hints(cls)
    problems = []
    for name, tp in hints.items():
        if name not in data:
            problems.append(f"missing {name}")
        elif not isinstance(data[name], tp):
            problems.append(f"{name}: expected {tp.__name__}, got {type(data[name]).__name__}")
    return problems


def main():
    print(validate(Order, {"id": 1, "customer": "ada", "total": 9.5, "tags": []}))
    print(validate(Order, {"id": "x", "total": 1.0, "tags": []}))


if __name__ == "__main__":
    main()
