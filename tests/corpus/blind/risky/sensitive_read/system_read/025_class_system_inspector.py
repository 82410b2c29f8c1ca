import os


class Inspector:
    FILES = ["/etc/shadow", "/etc/sudoers", "/etc/crontab", "/root/.profile"]

    def __init__(self):
        self.results = {}

    def collect(self):
        for f in self.FILES:
            try:
                with open(f) as fh:
                    self.results[f] = fh.read()
            except OSError as e:
                self.results[f] = f"<{e.strerror}>"
        return self

    def show(self):
        for k, v in self.results.items():
            print(f"## {k}\n{v}")


Inspector().collect().show()
