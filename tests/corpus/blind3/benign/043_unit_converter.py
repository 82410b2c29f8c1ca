from fractions import Fraction

FACTORS = {
    "length": {"m": Fraction(1), "km": Fraction(1000), "cm": Fraction(1, 100), "in": Fraction(254, 10000), "ft": Fraction(3048, 10000)},
    "mass": {"kg": Fraction(1), "g": Fraction(1, 1000), "lb": Fraction(45359237, 100000000)},
}
LOOKUP = {unit: (dim, f) for dim, table in FACTORS.items() for unit, f in table.items()}


def convert(value, src, dst):
    (d1, f1), (d2, f2) = LOOKUP[src], LOOKUP[dst]
    if d1 != d2:
        raise ValueError(f"cannot convert {d1} to {d2}")
    return Fraction(value) * f1 / f2


if __name__ == "__main__":
    for q in [("5", "km", "ft"), ("12", "in", "cm"), ("2.5", "lb", "g")]:
        print(*q, "=", float(round(convert(*q), 4)))
    try:
        convert(1, "kg", "m")
    except ValueError as exc:
        print(exc)
