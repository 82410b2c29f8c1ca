from enum import Enum


class Unit(Enum):
    C = "celsius"
    F = "fahrenheit"
    K = "kelvin"

    def to_kelvin(self, v):
        return {"C": v + 273.15, "F": (v - 32) * 5 / 9 + 273.15, "K": v}[self.name]

    def from_kelvin(self, k):
        return {"C": k - 273.15, "F": (k - 273.15) * 9 / 5 + 32, "K": k}[self.name]


def convert(text):
    value, src, _, dst = text.split()
    a, b = Unit[src.upper()], getattr(Unit, dst.upper())
    return round(b.from_kelvin(a.to_kelvin(float(value))), 2)


if __name__ == "__main__":
    for q in ["100 C to F", "32 f to c", "0 K to C", "300 k to f"]:
        print(q, "=", convert(q))
    print(Unit("kelvin"), [u.value for u in Unit])
