import sys
from html.parser import HTMLParser
from urllib.parse import urljoin
import urllib.request


class LinkParser(HTMLParser):
    def __init__(self, base):
        super().__init__()
        self.base, self.links = base, set()

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.add(urljoin(self.base, href))


url = sys.argv[1] if len(sys.argv) > 1 else "https://example.com"
p = LinkParser(url)
p.feed(urllib.request.urlopen(url).read().decode("utf-8", "replace"))
print("\n".join(sorted(p.links)))
