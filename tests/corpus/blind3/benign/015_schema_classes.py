SCHEMA = {
    "Point": {"fields": ["x", "y"], "doc": "A 2D point."},
    "Color": {"fields": ["r", "g", "b"], "doc": "An RGB colour."},
}


def make_class(name, spec):
    fields = spec["fields"]

    def __init__(self, *args):
        if len(args) != len(fields):
            raise TypeError(f"{name} takes {len(fields)} arguments")
        for f, v in zip(fields, args):
            setattr(self, f, v)

    def __repr__(self):
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"{name}({inner})"

    return type(name, (object,), {"__init__": __init__, "__repr__": __repr__, "__doc__": spec["doc"], "fields": tuple(fields)})


if __name__ == "__main__":
    classes = {name: make_class(name, spec) for name, spec in SCHEMA.items()}
    p = classes["Point"](1, 2)
    c = classes["Color"](255, 128, 0)
    print(p, c)
    print(type(p).__name__, type(p).__doc__, classes["Color"].fields)
