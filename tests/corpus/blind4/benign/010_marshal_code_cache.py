"""Cache a compiled formula as marshal bytes and rebuild the function from it."""
import marshal
import types

FORMULA = "def area(w, h):\n    return w * h\n"


def compile_formula(src):
    module_code = compile(src, "<formula>", "exec")
    func_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    return marshal.dumps(func_code)


def load_formula(blob):
    return types.FunctionType(marshal.loads(blob), {}, "area")


def main():
    blob = compile_formula(FORMULA)
    area = load_formula(blob)
    print("cached", len(blob), "bytes; area(3, 4) =", area(3, 4))


if __name__ == "__main__":
    main()
