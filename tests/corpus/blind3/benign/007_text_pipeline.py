from operator import methodcaller

STEPS = [
    ("strip", ()),
    ("lower", ()),
    ("replace", ("  ", " ")),
    ("replace", ("colour", "color")),
    ("capitalize", ()),
]


def build(steps):
    return [methodcaller(name, *args) for name, args in steps]


def apply(text, ops):
    for op in ops:
        text = op(text)
    return text


if __name__ == "__main__":
    ops = build(STEPS)
    for raw in ["   The COLOUR  of Money ", "COLOUR theory  "]:
        print(repr(raw), "->", repr(apply(raw, ops)))
    print(list(map(methodcaller("split", "-"), ["a-b", "c-d-e"])))
