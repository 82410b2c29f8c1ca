import subprocess


class Repo:
    def __init__(self, path="."):
        self.path = path

    def _run(self, *args):
        return subprocess.check_output(["git", "-C", self.path, *args], text=True)

    def changed_files(self, base="main"):
        return self._run("diff", "--name-only", f"{base}...HEAD").split()

    def tags(self):
        return self._run("tag", "--sort=-creatordate").split()[:5]


r = Repo()
print("changed:", r.changed_files())
print("recent tags:", r.tags())
