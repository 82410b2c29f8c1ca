import operator
from dataclasses import dataclass


@dataclass
class Employee:
    name: str
    dept: str
    salary: int
    age: int


STAFF = [
    Employee("Ana", "eng", 120, 31),
    Employee("Bo", "ops", 90, 45),
    Employee("Cy", "eng", 105, 28),
    Employee("Di", "ops", 95, 39),
]


def sort_by(records, spec):
    keys = [k.lstrip("-") for k in spec.split(",")]
    result = list(records)
    for key in reversed(keys):
        desc = f"-{key}" in spec.split(",")
        result.sort(key=operator.attrgetter(key), reverse=desc)
    return result


if __name__ == "__main__":
    for spec in ["name", "dept,-salary", "-age"]:
        print(spec, "->", [e.name for e in sort_by(STAFF, spec)])
    pick = operator.attrgetter("name", "dept")
    print([pick(e) for e in STAFF])
