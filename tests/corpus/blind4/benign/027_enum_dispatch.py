"""Enum-based dispatch of unit conversions, with auto() values from _generate_next_value_."""
import enum


class Unit(enum.Enum):
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()

    METER = enum.auto()
    FOOT = enum.auto()
    INCH = enum.auto()

    @property
    def factor(self):
        return {"meter": 1.0, "foot": 0.3048, "inch": 0.0254}[self.value]

    def to(self, other, amount):
        return amount * self.factor / other.factor


def main():
    print([u.value for u in Unit])
    print("3 ft in m:", round(Unit("foot").to(Unit.METER, 3), 4))
    print("1 m in in:", round(Unit["METER"].to(Unit.INCH, 1), 2))


if __name__ == "__main__":
    main()
