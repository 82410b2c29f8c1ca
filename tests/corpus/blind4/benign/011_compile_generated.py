"""Generate a small record class from a field list and exec the generated source."""

TEMPLATE = '''
class {name}:
    __slots__ = {fields!r}

    def __init__(self, {args}):
{assigns}

    def __repr__(self):
        return "{name}(" + ", ".join(f"{{k}}={{getattr(self, k)!r}}" for k in self.__slots__) + ")"
'''


def make_record(name, fields):
    for f in fields:
        if not f.isidentifier():
            raise ValueError(f)
    src = TEMPLATE.format(name=name, fields=tuple(fields), args=", ".join(fields),
                          assigns="\n".join(f"        self.{f} = {f}" for f in fields))
    ns = {}
    exec(compile(src, f"<record {name}>", "exec"), ns)
    return ns[name]


def main():
    Point = make_record("Point", ["x", "y"])
    print(Point(1, 2))


if __name__ == "__main__":
    main()
