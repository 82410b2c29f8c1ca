import csv

seen = set()
kept = []
with open("contacts.csv", newline="") as f:
    reader = csv.DictReader(f)
    fields = reader.fieldnames
    for row in reader:
        key = row["email"].strip().lower()
        if key not in seen:
            seen.add(key)
            kept.append(row)
with open("contacts_dedup.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(kept)
print(len(kept), "unique contacts")
