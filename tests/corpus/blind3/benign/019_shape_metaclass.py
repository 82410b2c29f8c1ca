import math


class Registered(type):
    registry = {}

    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        if bases:
            mcls.registry[ns.get("kind", name.lower())] = cls
        return cls


class Shape(metaclass=Registered):
    def area(self):
        raise NotImplementedError


class Circle(Shape):
    kind = "circle"

    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h


def build(spec):
    kind, *args = spec.split()
    return Registered.registry[kind](*map(float, args))


if __name__ == "__main__":
    print(sorted(Registered.registry))
    for spec in ["circle 1", "rect 2 3", "circle 0.5"]:
        print(spec, "->", round(build(spec).area(), 3))
