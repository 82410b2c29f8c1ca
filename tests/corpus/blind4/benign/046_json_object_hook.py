"""Decode JSON into typed objects using object_hook and a type registry."""
import json
from dataclasses import dataclass

TYPES = {}


def jsontype(cls):
    TYPES[cls.__name__] = cls
    return cls


@jsontype
@dataclass
class Point:
    x: float
    y: float


@jsontype
@dataclass
class Line:
    a: Point
    b: Point


def hook(d):
    kind = d.pop("__type__", None)
    return TYPES[kind](**d) if kind in TYPES else d


def main():
    text = '{"__type__": "Line", "a": {"__type__": "Point", "x": 0, "y": 0}, "b": {"__type__": "Point", "x": 3, "y": 4}}'
    line = json.loads(text, object_hook=hook)
    print(line, ((line.b.x - line.a.x) ** 2 + (line.b.y - line.a.y) ** 2) ** 0.5)


if __name__ == "__main__":
    main()
