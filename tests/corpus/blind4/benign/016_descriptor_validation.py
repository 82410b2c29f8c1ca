"""Typed, range-checked fields implemented as descriptors with __set_name__."""


class Bounded:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __set_name__(self, owner, name):
        self.name = "_" + name

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj, self.name)

    def __set__(self, obj, value):
        if not self.lo <= value <= self.hi:
            raise ValueError(f"{self.name[1:]}={value} outside [{self.lo}, {self.hi}]")
        setattr(obj, self.name, value)


class Color:
    r = Bounded(0, 255)
    g = Bounded(0, 255)
    b = Bounded(0, 255)

    def __init__(self, r, g, b):
        self.r, self.g, self.b = r, g, b

    def hex(self):
        return "#%02x%02x%02x" % (self.r, self.g, self.b)


def main():
    print(Color(255, 128, 0).hex())
    try:
        Color(300, 0, 0)
    except ValueError as exc:
        print("invalid:", exc)


if __name__ == "__main__":
    main()
