"""Quantities with a custom __format__ that understands unit specs like 'km' or '.2f:mi'."""


class Distance:
    FACTORS = {"m": 1.0, "km": 1000.0, "mi": 1609.344}

    def __init__(self, meters):
        self.meters = meters

    def __format__(self, spec):
        num, _, unit = spec.rpartition(":") if ":" in spec else ("", "", spec or "m")
        value = self.meters / self.FACTORS[unit]
        return format(value, num or "g") + " " + unit


def main():
    d = Distance(42195)
    print(f"{d:km}  {d:.1f:mi}  {d}")


if __name__ == "__main__":
    main()
