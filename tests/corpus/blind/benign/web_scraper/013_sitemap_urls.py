import xml.etree.ElementTree as ET
import requests

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9"}
xml = requests.get("https://www.python.org/sitemap.xml", timeout=15).content
root = ET.fromstring(xml)
urls = [loc.text for loc in root.findall(".//sm:loc", NS)]
print(len(urls), "urls")
print("\n".join(urls[:20]))
