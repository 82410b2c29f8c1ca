"""Snapshot application state with pickle in memory and restore it."""
import pickle
from dataclasses import dataclass, field


@dataclass
class Inventory:
    owner: str
    items: dict = field(default_factory=dict)

    def add(self, name, qty):
        self.items[name] = self.items.get(name, 0) + qty


def main():
    inv = Inventory("shop")
    inv.add("apple", 3)
    inv.add("pear", 2)
    blob = pickle.dumps(inv, protocol=pickle.HIGHEST_PROTOCOL)
    restored = pickle.loads(blob)
    print(len(blob), "bytes;", restored == inv, restored)


if __name__ == "__main__":
    main()
