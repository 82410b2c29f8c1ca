"""Evaluate a Python-syntax settings file (embedded here) into a fresh module object."""
import types

SETTINGS_SRC = '''
DEBUG = False
WORKERS = 2 * 4
ALLOWED = ["localhost", "127.0.0.1"]
NAME = "demo-" + str(WORKERS)
'''


def load_settings(src):
    mod = types.ModuleType("settings")
    exec(compile(src, "<settings>", "exec"), mod.__dict__)
    return {k: v for k, v in vars(mod).items() if k.isupper()}


def main():
    print(load_settings(SETTINGS_SRC))


if __name__ == "__main__":
    main()
