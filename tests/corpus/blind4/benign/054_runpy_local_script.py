"""Generate a helper script in a local temp folder and run it with runpy.run_path."""
import os
import runpy
import tempfile

SCRIPT = "result = sum(i * i for i in range(10))\nlabel = 'sum of squares'\n"


def main():
    with tempfile.TemporaryDirectory(dir=".") as work:
        path = os.path.join(work, "helper.py")
        with open(path, "w") as fh:
            fh.write(SCRIPT)
        ns = runpy.run_path(path, run_name="helper")
        print(ns["label"], ns["result"])


if __name__ == "__main__":
    main()
