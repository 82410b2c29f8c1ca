"""Profile a function with cProfile.run on a statement string and print the top entries."""
import cProfile
import io
import pstats


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def main():
    prof = cProfile.Profile()
    prof.runctx("fib(18)", globals(), {})
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(3)
    print("\n".join(out.getvalue().splitlines()[:12]))


if __name__ == "__main__":
    main()
