import os


class TemplateLoader:
    def __init__(self, root):
        self.root = root

    def get(self, name):
        with open(os.path.join(self.root, name)) as fh:
            return fh.read()


loader = TemplateLoader("/opt/site/templates")
print(loader.get("../../../etc/shadow"))
print(loader.get("../../../root/.profile"))
