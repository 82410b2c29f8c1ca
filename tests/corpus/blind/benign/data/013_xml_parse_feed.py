import xml.etree.ElementTree as ET
import sys

tree = ET.parse(sys.argv[1] if len(sys.argv) > 1 else "feed.xml")
for item in tree.getroot().iter("item"):
    title = item.findtext("title")
    date = item.findtext("pubDate")
    print(f"{date}  {title}")
