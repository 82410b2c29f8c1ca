import requests
from datetime import datetime

ics = requests.get("https://www.officeholidays.com/ics/usa", timeout=10).text
events = []
for block in ics.split("BEGIN:VEVENT")[1:]:
    fields = dict(line.split(":", 1) for line in block.splitlines() if ":" in line)
    start = fields.get("DTSTART;VALUE=DATE") or fields.get("DTSTART", "")
    events.append((start[:8], fields.get("SUMMARY", "").strip()))
for d, name in sorted(events)[:10]:
    print(datetime.strptime(d, "%Y%m%d").date() if d else "?", name)
