"""Temporarily replace builtins.print to capture output of a legacy function, then restore it."""
import builtins
import contextlib


def legacy_report():
    print("line one")
    print("line", 2)


@contextlib.contextmanager
def captured_print():
    lines = []
    original = builtins.print
    builtins.print = lambda *a, **k: lines.append(" ".join(map(str, a)))
    try:
        yield lines
    finally:
        builtins.print = original


def main():
    with captured_print() as lines:
        legacy_report()
    print("captured:", lines)


if __name__ == "__main__":
    main()
