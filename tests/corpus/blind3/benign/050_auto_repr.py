import inspect


def auto_repr(cls):
    params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]

    def __repr__(self):
        args = ", ".join(f"{p}={getattr(self, p)!r}" for p in params)
        return f"{type(self).__name__}({args})"

    setattr(cls, "__repr__", __repr__)
    return cls


@auto_repr
class Book:
    def __init__(self, title, author, year=None):
        self.title, self.author, self.year = title, author, year


@auto_repr
class Track:
    def __init__(self, name, seconds):
        self.name, self.seconds = name, seconds


if __name__ == "__main__":
    print(Book("Dune", "Herbert", 1965))
    print(Track("Intro", 94))
    print(inspect.getsource(auto_repr).splitlines()[0])
