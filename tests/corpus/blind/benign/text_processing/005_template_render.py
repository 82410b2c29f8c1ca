from string import Template

tpl = Template(open("letter.tpl").read())
people = [
    {"name": "Ana", "amount": "120.00", "due": "May 1"},
    {"name": "Ben", "amount": "75.50", "due": "May 3"},
]
for p in people:
    with open(f"letter_{p['name'].lower()}.txt", "w") as out:
        out.write(tpl.safe_substitute(p))
print("letters written")
