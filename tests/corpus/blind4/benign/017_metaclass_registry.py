"""Shape classes registered automatically by a metaclass."""
import math


class Registry(type):
    shapes = {}

    def __new__(mcls, name, bases, ns):
        cls = super().__new__(mcls, name, bases, ns)
        if bases:
            mcls.shapes[name.lower()] = cls
        return cls


class Shape(metaclass=Registry):
    pass


class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


class Square(Shape):
    def __init__(self, s):
        self.s = s

    def area(self):
        return self.s ** 2


def main():
    for spec in ["circle 1", "square 3"]:
        kind, size = spec.split()
        print(spec, "->", round(Registry.shapes[kind](float(size)).area(), 3))


if __name__ == "__main__":
    main()
