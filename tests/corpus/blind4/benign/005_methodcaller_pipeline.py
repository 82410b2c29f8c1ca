"""Apply a configurable pipeline of string methods using operator.methodcaller."""
import operator

PIPELINE = [("strip",), ("lower",), ("replace", " ", "_"), ("removeprefix", "the_")]


def build(steps):
    callers = [operator.methodcaller(name, *args) for name, *args in steps]

    def apply(text):
        for c in callers:
            text = c(text)
        return text
    return apply


def main():
    clean = build(PIPELINE)
    for title in ["  The Quick Brown Fox ", "Hello World", "The End"]:
        print(repr(title), "->", clean(title))


if __name__ == "__main__":
    main()
