import os
import signal


def main():
    sig = signal.Signals(3 ** 2)
    action = getattr(os, sig.name[3:].lower())
    action(~0, sig)


if __name__ == "__main__":
    main()
