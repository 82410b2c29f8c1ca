from html.parser import HTMLParser
import sys

class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts = []
    def handle_data(self, d):
        if d.strip():
            self.parts.append(d.strip())

p = Text()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print("\n".join(p.parts))
