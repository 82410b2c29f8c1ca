import ast
import operator

BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}


def evaluate(node):
    if isinstance(node, ast.Expression):
        return evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        return BINARY[type(node.op)](evaluate(node.left), evaluate(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        return UNARY[type(node.op)](evaluate(node.operand))
    raise ValueError(f"unsupported expression: {ast.dump(node)}")


def calc(text):
    return evaluate(ast.parse(text, mode="eval"))


if __name__ == "__main__":
    for expr in ["1 + 2 * 3", "(4 - 1) ** 3", "-7 // 2", "10 / 4 + 0.5", "17 % 5"]:
        print(f"{expr:>15} = {calc(expr)}")
    try:
        calc("__import__('math').pi")
    except ValueError as exc:
        print("rejected:", exc)
