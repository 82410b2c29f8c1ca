# expect: BENIGN category: data_processing
import json
import xml.etree.ElementTree as ET

tree = ET.parse("catalog.xml")
books = [
    {"id": book.get("id"), "title": book.findtext("title"), "price": float(book.findtext("price", "0"))}
    for book in tree.getroot().iter("book")
]
with open("catalog.json", "w") as handle:
    json.dump(books, handle, indent=2)
