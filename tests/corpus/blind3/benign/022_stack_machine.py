class StackVM:
    def __init__(self):
        self.stack = []
        self.out = []

    def op_push(self, arg):
        self.stack.append(int(arg))

    def op_add(self, _):
        b, a = self.stack.pop(), self.stack.pop()
        self.stack.append(a + b)

    def op_mul(self, _):
        b, a = self.stack.pop(), self.stack.pop()
        self.stack.append(a * b)

    def op_dup(self, _):
        self.stack.append(self.stack[-1])

    def op_print(self, _):
        self.out.append(self.stack[-1])

    def run(self, program):
        for line in program.strip().splitlines():
            name, _, arg = line.strip().partition(" ")
            handler = getattr(self, "op_" + name, None)
            if handler is None:
                raise ValueError(f"unknown op {name!r}")
            handler(arg)
        return self.out


PROGRAM = """
push 6
push 7
mul
print
dup
push 8
add
print
"""

if __name__ == "__main__":
    vm = StackVM()
    print(vm.run(PROGRAM), vm.stack)
    print("ops:", [n[3:] for n in dir(vm) if n.startswith("op_")])
