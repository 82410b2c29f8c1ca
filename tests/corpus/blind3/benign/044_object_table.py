from dataclasses import dataclass


@dataclass
class Server:
    name: str
    cpu: int
    region: str


class Job:
    def __init__(self, jid, owner):
        self.jid = jid
        self.owner = owner
        self._secret_flag = False


def to_table(objects):
    rows = [{k: v for k, v in vars(o).items() if not k.startswith("_")} for o in objects]
    cols = list(dict.fromkeys(k for r in rows for k in r))
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    lines = [" | ".join(c.ljust(widths[c]) for c in cols), "-+-".join("-" * widths[c] for c in cols)]
    for r in rows:
        lines.append(" | ".join(str(r.get(c, "")).ljust(widths[c]) for c in cols))
    return "\n".join(lines)


if __name__ == "__main__":
    print(to_table([Server("web1", 4, "eu"), Server("db1", 16, "us")]))
    print()
    print(to_table([Job(1, "ann"), Job(2, "raj")]))
    print(type(Job(3, "x")).__name__, sorted(Job.__dict__.keys())[:3])
