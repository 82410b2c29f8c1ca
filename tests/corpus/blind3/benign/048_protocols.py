import abc
from typing import Protocol, runtime_checkable


@runtime_checkable
class Drawable(Protocol):
    def draw(self) -> str: ...


class Sized(abc.ABC):
    @classmethod
    def __subclasshook__(cls, other):
        if cls is Sized:
            return any("size" in vars(b) for b in other.__mro__)
        return NotImplemented


class Box:
    size = 3

    def draw(self):
        return "[" + " " * self.size + "]"


class Dot:
    def draw(self):
        return "."


class Number:
    pass


if __name__ == "__main__":
    for obj in (Box(), Dot(), Number()):
        name = type(obj).__name__
        print(name, isinstance(obj, Drawable), isinstance(obj, Sized), obj.draw() if isinstance(obj, Drawable) else "-")
