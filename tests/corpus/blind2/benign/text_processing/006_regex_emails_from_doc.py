import re

# pull contact addresses out of the meeting notes file
with open("meeting_notes.txt", encoding="utf-8") as fh:
    text = fh.read()
emails = sorted(set(re.findall(r"[\w.+-]+@[\w-]+\.[\w.-]+", text)))
print(f"{len(emails)} addresses")
for e in emails:
    print(" ", e)
