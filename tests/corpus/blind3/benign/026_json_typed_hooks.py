import json
from fractions import Fraction
from datetime import date

TYPES = {}


def serializable(cls):
    TYPES[cls.__name__] = cls
    return cls


@serializable
class Money:
    def __init__(self, amount, currency):
        self.amount, self.currency = amount, currency

    def to_json(self):
        return {"amount": self.amount, "currency": self.currency}

    def __repr__(self):
        return f"Money({self.amount} {self.currency})"


class Encoder(json.JSONEncoder):
    def default(self, o):
        if type(o).__name__ in TYPES:
            return {"__type__": type(o).__name__, **o.to_json()}
        if isinstance(o, Fraction):
            return {"__type__": "Fraction", "value": str(o)}
        if isinstance(o, date):
            return {"__type__": "date", "value": o.isoformat()}
        return super().default(o)


def hook(d):
    kind = d.pop("__type__", None)
    if kind is None:
        return d
    if kind == "Fraction":
        return Fraction(d["value"])
    if kind == "date":
        return date.fromisoformat(d["value"])
    return TYPES[kind](**d)


if __name__ == "__main__":
    doc = {"price": Money(12, "EUR"), "share": Fraction(1, 3), "due": date(2024, 5, 1)}
    text = json.dumps(doc, cls=Encoder)
    print(text)
    print(json.loads(text, object_hook=hook))
