import math
import operator as op


def tokenize(src):
    return src.replace("(", " ( ").replace(")", " ) ").split()


def parse(tokens):
    tok = tokens.pop(0)
    if tok == "(":
        out = []
        while tokens[0] != ")":
            out.append(parse(tokens))
        tokens.pop(0)
        return out
    try:
        return int(tok)
    except ValueError:
        try:
            return float(tok)
        except ValueError:
            return tok


class Env(dict):
    def __init__(self, params=(), args=(), outer=None):
        super().__init__(zip(params, args))
        self.outer = outer

    def find(self, name):
        return self if name in self else self.outer.find(name)


def standard_env():
    env = Env()
    env.update({"+": op.add, "-": op.sub, "*": op.mul, "/": op.truediv, "<": op.lt, "=": op.eq, "sqrt": math.sqrt})
    return env


def evaluate(x, env):
    if isinstance(x, str):
        return env.find(x)[x]
    if not isinstance(x, list):
        return x
    head, *rest = x
    if head == "if":
        test, yes, no = rest
        return evaluate(yes if evaluate(test, env) else no, env)
    if head == "define":
        env[rest[0]] = evaluate(rest[1], env)
        return None
    if head == "lambda":
        params, body = rest
        return lambda *args: evaluate(body, Env(params, args, env))
    fn = evaluate(head, env)
    return fn(*[evaluate(a, env) for a in rest])


if __name__ == "__main__":
    env = standard_env()
    for src in [
        "(define fact (lambda (n) (if (< n 2) 1 (* n (fact (- n 1))))))",
        "(fact 10)",
        "(sqrt (+ (* 3 3) (* 4 4)))",
    ]:
        print(src, "=>", evaluate(parse(tokenize(src)), env))
