import cProfile
import io
import pstats


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def primes(limit):
    sieve = [True] * limit
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = [False] * len(range(i * i, limit, i))
    return [i for i in range(2, limit) if sieve[i]]


def workload():
    return fib(18), len(primes(20000))


if __name__ == "__main__":
    profiler = cProfile.Profile()
    result = profiler.runcall(workload)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(4)
    print("result:", result)
    print("\n".join(out.getvalue().splitlines()[:12]))
