import ast
import operator

OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: operator.pow}

SOURCE = """
SECONDS_PER_DAY = 60 * 60 * 24
KIB = 2 ** 10
def hours(days):
    return days * (60 * 60 * 24) / (60 * 60)
"""


class Folder(ast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Constant) and type(node.op) in OPS:
            return ast.copy_location(ast.Constant(OPS[type(node.op)](node.left.value, node.right.value)), node)
        return node


if __name__ == "__main__":
    tree = ast.fix_missing_locations(Folder().visit(ast.parse(SOURCE)))
    print(ast.unparse(tree))
    namespace = {}
    exec(compile(tree, "<folded>", "exec"), namespace)
    print(namespace["SECONDS_PER_DAY"], namespace["KIB"], namespace["hours"](2))
