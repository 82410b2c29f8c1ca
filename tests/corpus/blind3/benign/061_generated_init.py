def record(*fields, defaults=None):
    defaults = defaults or {}

    def decorate(cls):
        params = ", ".join(f"{f}={defaults[f]!r}" if f in defaults else f for f in fields)
        body = "\n".join(f"    self.{f} = {f}" for f in fields) or "    pass"
        source = f"def __init__(self, {params}):\n{body}\n"
        namespace = {}
        exec(source, {}, namespace)
        cls.__init__ = namespace["__init__"]
        cls.__repr__ = lambda self: f"{cls.__name__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in fields) + ")"
        cls._init_source = source
        return cls
    return decorate


@record("title", "pages", "isbn", defaults={"isbn": None})
class Book:
    pass


if __name__ == "__main__":
    print(Book._init_source)
    print(Book("SICP", 657))
    print(Book("TAOCP", 672, isbn="0-201-89683-4"))
