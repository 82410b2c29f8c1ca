import timeit

SETUP = "data = list(range(2000))"
CANDIDATES = {
    "loop": "out = []\nfor x in data:\n    out.append(x * x)",
    "comprehension": "out = [x * x for x in data]",
    "map": "out = list(map(lambda x: x * x, data))",
}


if __name__ == "__main__":
    results = {}
    for name, stmt in CANDIDATES.items():
        results[name] = min(timeit.repeat(stmt, SETUP, number=50, repeat=3))
    best = min(results, key=results.get)
    for name, t in sorted(results.items(), key=lambda kv: kv[1]):
        print(f"{name:>14}: {t * 1000:.2f} ms")
    print("fastest:", best)
    print("callable form:", round(timeit.timeit(lambda: sum(range(100)), number=1000), 4) >= 0)
