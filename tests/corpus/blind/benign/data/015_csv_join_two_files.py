import csv

with open("customers.csv", newline="") as f:
    customers = {r["id"]: r for r in csv.DictReader(f)}
with open("orders.csv", newline="") as f, open("orders_enriched.csv", "w", newline="") as out:
    reader = csv.DictReader(f)
    w = csv.DictWriter(out, fieldnames=reader.fieldnames + ["customer_name"])
    w.writeheader()
    for o in reader:
        o["customer_name"] = customers.get(o["customer_id"], {}).get("name", "")
        w.writerow(o)
