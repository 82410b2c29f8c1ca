from string import Template

LETTER = Template("""Dear $name,

Your order #$order_id of $count item(s) ships on $date.
Total: $$${total}

-- $shop""")

PEOPLE = [
    {"name": "Ada", "order_id": 1001, "count": 2, "date": "Mon", "total": "19.90"},
    {"name": "Linus", "order_id": 1002, "count": 1, "date": "Tue", "total": "5.00"},
]


class Defaults(dict):
    def __missing__(self, key):
        return f"<{key}?>"


if __name__ == "__main__":
    for person in PEOPLE:
        print(LETTER.substitute(person, shop="Corner Books"))
        print()
    print(LETTER.safe_substitute(name="Partial"))
    print("{name} owes {amount}".format_map(Defaults(name="Bob")))
