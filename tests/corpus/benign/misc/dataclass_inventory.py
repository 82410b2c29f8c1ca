# expect: BENIGN category: misc
from dataclasses import asdict, dataclass, field
import json

@dataclass
class Item:
    name: str
    quantity: int = 0
    tags: list[str] = field(default_factory=list)

inventory = [Item("bolt", 100, ["hardware"]), Item("glue", 3)]
low = [item.name for item in inventory if item.quantity < 10]
print(json.dumps([asdict(item) for item in inventory], indent=2))
print("reorder:", low)
