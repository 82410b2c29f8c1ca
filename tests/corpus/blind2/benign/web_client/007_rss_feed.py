import urllib.request
import xml.etree.ElementTree as ET

FEED = "https://planetpython.org/rss20.xml"
with urllib.request.urlopen(FEED, timeout=15) as r:
    root = ET.fromstring(r.read())
for item in root.iter("item"):
    print("-", item.findtext("title"))
