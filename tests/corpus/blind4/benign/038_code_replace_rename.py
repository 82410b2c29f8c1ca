"""Give generated lambdas readable names in tracebacks by replacing code-object names."""
import traceback


def named(fn, name):
    fn.__code__ = fn.__code__.replace(co_name=name, co_qualname=name)
    fn.__name__ = fn.__qualname__ = name
    return fn


def make_divider(d):
    return named(lambda x: x / d, f"divide_by_{d}")


def main():
    f = make_divider(0)
    try:
        f(1)
    except ZeroDivisionError:
        tb = traceback.format_exc()
        print("divide_by_0" in tb, f.__name__, f.__code__.co_names)


if __name__ == "__main__":
    main()
