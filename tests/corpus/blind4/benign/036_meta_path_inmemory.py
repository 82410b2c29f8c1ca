"""Serve modules from an in-memory dict through a sys.meta_path finder (for tests/demos)."""
import importlib
import importlib.abc
import importlib.util
import sys

SOURCES = {
    "demo_greetings": "def hello(name):\n    return 'hello ' + name\n",
    "demo_math": "def double(x):\n    return 2 * x\n",
}


class DictFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name in SOURCES:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(SOURCES[module.__name__], "<mem:" + module.__name__ + ">", "exec"), module.__dict__)


def main():
    finder = DictFinder()
    sys.meta_path.insert(0, finder)
    try:
        greet = importlib.import_module("demo_greetings")
        dm = importlib.import_module("demo_math")
        print(greet.hello("world"), dm.double(21))
    finally:
        sys.meta_path.remove(finder)


if __name__ == "__main__":
    main()
