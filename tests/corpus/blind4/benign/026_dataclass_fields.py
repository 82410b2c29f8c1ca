"""Dataclass introspection: fields(), asdict(), replace() and a generic diff."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Server:
    name: str
    cpus: int = 2
    memory_gb: int = 4
    tags: tuple = ()


def diff(a, b):
    return {f.name: (getattr(a, f.name), getattr(b, f.name))
            for f in dataclasses.fields(a) if getattr(a, f.name) != getattr(b, f.name)}


def main():
    s1 = Server("web-1", tags=("prod",))
    s2 = dataclasses.replace(s1, cpus=8, memory_gb=16)
    print(dataclasses.asdict(s2))
    print(diff(s1, s2))


if __name__ == "__main__":
    main()
