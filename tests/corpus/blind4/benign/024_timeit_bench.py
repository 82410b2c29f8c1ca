"""Micro-benchmark two ways of joining strings with timeit."""
import timeit

SETUP = "words = [str(i) for i in range(100)]"
CANDIDATES = {
    "join": "''.join(words)",
    "concat": "s = ''\nfor w in words:\n    s += w",
}


def main():
    for name, stmt in CANDIDATES.items():
        t = timeit.timeit(stmt, setup=SETUP, number=2000)
        print(f"{name:>7}: {t * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
