"""Bound a long computation with a SIGALRM interval timer."""
import signal


class Timeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise Timeout


def collatz_longest(limit):
    best = (0, 0)
    n = 1
    while n < limit:
        x, steps = n, 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            steps += 1
        best = max(best, (steps, n))
        n += 1
    return best


def main():
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        print("result", collatz_longest(10 ** 9))
    except Timeout:
        print("timed out, partial work discarded")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


if __name__ == "__main__":
    main()
