import typing
from dataclasses import dataclass


@dataclass
class Order:
    item: str
    quantity: int
    price: float
    notes: typing.Optional[str] = None


def coerce(cls, raw):
    hints = typing.get_type_hints(cls)
    values = {}
    for name, hint in hints.items():
        if name not in raw:
            continue
        target = hint
        if typing.get_origin(hint) is typing.Union:
            target = next(a for a in typing.get_args(hint) if a is not type(None))
        values[name] = target(raw[name])
    return cls(**values)


if __name__ == "__main__":
    print(typing.get_type_hints(Order))
    print(coerce(Order, {"item": "pen", "quantity": "3", "price": "1.25"}))
    print(coerce(Order, {"item": "ink", "quantity": 1, "price": 4, "notes": 42}))
