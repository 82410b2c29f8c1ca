ROWS = [
    {"price": 10.0, "qty": 3, "discount": 0.1},
    {"price": 4.5, "qty": 10, "discount": 0.0},
    {"price": 99.0, "qty": 1, "discount": 0.25},
]

DERIVED = {
    "gross": "price * qty",
    "net": "gross * (1 - discount)",
    "flag": "'big' if net > 50 else 'small'",
}


def compile_columns(spec):
    compiled = {}
    for name, formula in spec.items():
        compiled[name] = compile(formula, f"<column {name}>", "eval")
    return compiled


def fill(rows, compiled):
    for row in rows:
        for name, code in compiled.items():
            row[name] = eval(code, {"__builtins__": {}}, row)
    return rows


if __name__ == "__main__":
    for row in fill(ROWS, compile_columns(DERIVED)):
        print({k: (round(v, 2) if isinstance(v, float) else v) for k, v in row.items()})
