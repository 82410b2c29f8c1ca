# expect: BENIGN category: http_client
import xml.etree.ElementTree as ET

import requests

feed = requests.get("https://planetpython.org/rss20.xml", timeout=10).text
root = ET.fromstring(feed)
for item in root.iter("item"):
    print("-", item.findtext("title"))
