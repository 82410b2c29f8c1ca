"""Print a run summary at interpreter exit with atexit."""
import atexit
import time

STATS = {"processed": 0, "skipped": 0}
START = time.perf_counter()


def summary(prefix):
    print(prefix, STATS, f"{time.perf_counter() - START:.3f}s")


def main():
    atexit.register(summary, "summary:")
    for n in range(20):
        STATS["processed" if n % 3 else "skipped"] += 1


if __name__ == "__main__":
    main()
