"""Build an arithmetic expression tree with ast nodes, then compile and evaluate it."""
import ast


def poly(coeffs):
    # builds c0 + c1*x + c2*x**2 ...
    terms = []
    for power, c in enumerate(coeffs):
        term = ast.BinOp(ast.Constant(c), ast.Mult(), ast.BinOp(ast.Name("x", ast.Load()), ast.Pow(), ast.Constant(power)))
        terms.append(term)
    expr = terms[0]
    for t in terms[1:]:
        expr = ast.BinOp(expr, ast.Add(), t)
    tree = ast.fix_missing_locations(ast.Expression(expr))
    return compile(tree, "<poly>", "eval"), ast.unparse(tree)


def main():
    code, text = poly([1, 0, 2])
    print(text)
    for x in range(4):
        print(x, eval(code, {"__builtins__": {}}, {"x": x}))


if __name__ == "__main__":
    main()
