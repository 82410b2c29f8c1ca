import marshal

FORMULAS = {
    "bmi": "weight / (height ** 2)",
    "bmr": "10 * weight + 6.25 * height * 100 - 5 * age + 5",
}


def build_cache(formulas):
    return {name: marshal.dumps(compile(expr, f"<{name}>", "eval")) for name, expr in formulas.items()}


def evaluate(cache, name, **values):
    code = marshal.loads(cache[name])
    return eval(code, {"__builtins__": {}}, values)


if __name__ == "__main__":
    cache = build_cache(FORMULAS)
    print({k: len(v) for k, v in cache.items()})
    person = {"weight": 70, "height": 1.75, "age": 30}
    for name in FORMULAS:
        print(name, round(evaluate(cache, name, **person), 1))
