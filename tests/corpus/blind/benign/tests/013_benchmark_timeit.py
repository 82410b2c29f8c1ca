import timeit

setup = "data = list(range(10_000))"
candidates = {
    "list comp": "[x * 2 for x in data]",
    "map lambda": "list(map(lambda x: x * 2, data))",
    "for loop": "out = []\nfor x in data:\n    out.append(x * 2)",
}
for name, stmt in candidates.items():
    t = min(timeit.repeat(stmt, setup, number=200, repeat=3))
    print(f"{name:<12} {t * 1000:.1f} ms")
