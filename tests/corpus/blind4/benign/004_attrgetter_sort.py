"""Sort nested records with operator.attrgetter on dotted paths."""
import operator
from dataclasses import dataclass


@dataclass
class Address:
    city: str
    zip: str


@dataclass
class Person:
    name: str
    age: int
    address: Address


def main():
    people = [Person("Ann", 31, Address("Oslo", "0150")), Person("Bo", 25, Address("Bergen", "5003")),
              Person("Cy", 40, Address("Aarhus", "8000"))]
    for key in ("name", "age", "address.city"):
        getter = operator.attrgetter(key)
        print(key, [getter(p) for p in sorted(people, key=getter)])


if __name__ == "__main__":
    main()
