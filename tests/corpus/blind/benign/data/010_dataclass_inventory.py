from dataclasses import dataclass, asdict
import json


@dataclass
class Item:
    sku: str
    name: str
    qty: int
    price: float

    @property
    def value(self):
        return self.qty * self.price


items = [Item("A1", "Widget", 10, 2.5), Item("B2", "Gadget", 3, 19.99), Item("C3", "Doohickey", 0, 7.0)]
low = [i for i in items if i.qty < 5]
print("inventory value:", sum(i.value for i in items))
print(json.dumps([asdict(i) for i in low], indent=2))
