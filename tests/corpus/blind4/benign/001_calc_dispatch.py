"""Tiny stack calculator that dispatches commands to methods with getattr."""


class Calculator:
    def __init__(self):
        self.stack = []

    def do_push(self, value):
        self.stack.append(float(value))

    def do_add(self):
        b, a = self.stack.pop(), self.stack.pop()
        self.stack.append(a + b)

    def do_mul(self):
        b, a = self.stack.pop(), self.stack.pop()
        self.stack.append(a * b)

    def do_neg(self):
        self.stack.append(-self.stack.pop())

    def run(self, line):
        name, *args = line.split()
        handler = getattr(self, "do_" + name, None)
        if handler is None:
            raise ValueError("unknown command: " + name)
        handler(*args)


def main():
    calc = Calculator()
    for line in ["push 3", "push 4", "add", "push 5", "mul", "neg"]:
        calc.run(line)
    print("result:", calc.stack[-1])


if __name__ == "__main__":
    main()
