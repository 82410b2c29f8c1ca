#!/usr/bin/env python3
import cgi
import os

form = cgi.FieldStorage()
doc = form.getfirst("doc", "index.txt")
print("Content-Type: text/plain\n")
with open(os.path.join(os.path.dirname(__file__), "docs", doc)) as f:
    print(f.read())
