from collections import defaultdict
from operator import methodcaller


class Bus:
    def __init__(self):
        self.handlers = defaultdict(list)

    def on(self, event):
        def wrap(fn):
            self.handlers[event].append(fn)
            return fn
        return wrap

    def emit(self, event, **payload):
        return [fn(**payload) for fn in self.handlers[event]]


class Inventory:
    def __init__(self):
        self.stock = {"apple": 5}

    def handle_sold(self, item, qty):
        self.stock[item] -= qty
        return f"stock {item}={self.stock[item]}"

    def handle_restock(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty
        return f"restocked {item}"


if __name__ == "__main__":
    bus = Bus()
    inv = Inventory()
    for event in ("sold", "restock"):
        bus.on(event)(getattr(inv, f"handle_{event}"))
    bus.on("sold")(lambda item, qty: f"email: {qty} {item} sold")
    print(bus.emit("sold", item="apple", qty=2))
    print(bus.emit("restock", item="pear", qty=10))
    print(list(map(methodcaller("upper"), inv.stock)))
