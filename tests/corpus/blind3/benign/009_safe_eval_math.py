import ast
import math

ALLOWED_NAMES = {k: getattr(math, k) for k in ("sqrt", "sin", "cos", "log", "pi", "e", "floor")}
ALLOWED_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load, ast.Constant,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.Mod,
)


def safe_eval(expr, **variables):
    tree = ast.parse(expr, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED_NODES):
            raise ValueError(f"disallowed: {type(node).__name__}")
        if isinstance(node, ast.Name) and node.id not in ALLOWED_NAMES and node.id not in variables:
            raise ValueError(f"unknown name: {node.id}")
    return eval(compile(tree, "<expr>", "eval"), {"__builtins__": {}}, {**ALLOWED_NAMES, **variables})


if __name__ == "__main__":
    print(safe_eval("sqrt(x**2 + y**2)", x=3, y=4))
    print(round(safe_eval("sin(pi / 6) * 2"), 6))
    print(safe_eval("floor(log(1000, 10) + 0.5)"))
    for bad in ["().__class__", "x.y", "[1,2]"]:
        try:
            safe_eval(bad, x=1)
        except ValueError as exc:
            print("blocked", repr(bad), exc)
