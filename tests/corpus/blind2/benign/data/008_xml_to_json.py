import json
import sys
import xml.etree.ElementTree as ET

def to_dict(el):
    d = dict(el.attrib)
    children = list(el)
    if children:
        for c in children:
            d.setdefault(c.tag, []).append(to_dict(c))
    elif el.text and el.text.strip():
        d["text"] = el.text.strip()
    return d

root = ET.parse(sys.argv[1]).getroot()
print(json.dumps({root.tag: to_dict(root)}, indent=2))
