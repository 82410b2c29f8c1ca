import dataclasses
import json


@dataclasses.dataclass
class Address:
    street: str
    city: str


@dataclasses.dataclass
class Person:
    name: str
    age: int
    address: Address
    tags: list = dataclasses.field(default_factory=list)


def from_dict(cls, data):
    kwargs = {}
    for f in dataclasses.fields(cls):
        value = data.get(f.name)
        if dataclasses.is_dataclass(f.type) and isinstance(value, dict):
            value = from_dict(f.type, value)
        kwargs[f.name] = value
    return cls(**kwargs)


if __name__ == "__main__":
    p = Person("Grace", 85, Address("1 Navy Way", "Arlington"), ["cobol"])
    text = json.dumps(dataclasses.asdict(p))
    print(text)
    q = from_dict(Person, json.loads(text))
    print(q == p, q)
    r = dataclasses.replace(q, age=86)
    for f in dataclasses.fields(r):
        print(f.name, "=", getattr(r, f.name))
