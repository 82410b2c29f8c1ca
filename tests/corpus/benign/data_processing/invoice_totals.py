# expect: BENIGN category: data_processing
from dataclasses import dataclass
from decimal import Decimal

@dataclass
class Line:
    description: str
    quantity: int
    unit_price: Decimal

    @property
    def total(self) -> Decimal:
        return self.quantity * self.unit_price

lines = [Line("widget", 3, Decimal("2.50")), Line("gadget", 1, Decimal("10.00"))]
subtotal = sum((line.total for line in lines), Decimal("0"))
tax = (subtotal * Decimal("0.2")).quantize(Decimal("0.01"))
print(f"subtotal {subtotal}  tax {tax}  total {subtotal + tax}")
