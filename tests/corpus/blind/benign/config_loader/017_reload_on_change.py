import json
import os
import time

PATH = "rules.json"
mtime, rules = 0, {}
for _ in range(10):
    m = os.path.getmtime(PATH)
    if m != mtime:
        with open(PATH) as f:
            rules = json.load(f)
        mtime = m
        print("reloaded", len(rules), "rules")
    time.sleep(1)
