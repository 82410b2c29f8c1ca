"""Output formatters registered by decorator and chosen by name."""
import json

FORMATTERS = {}


def formatter(name):
    def register(fn):
        FORMATTERS[name] = fn
        return fn
    return register


@formatter("json")
def as_json(rows):
    return json.dumps(rows, indent=1)


@formatter("csv")
def as_csv(rows):
    keys = list(rows[0])
    return "\n".join([",".join(keys)] + [",".join(str(r[k]) for k in keys) for r in rows])


@formatter("table")
def as_table(rows):
    keys = list(rows[0])
    return "\n".join(" | ".join(f"{r[k]!s:>6}" for k in keys) for r in rows)


def main():
    rows = [{"name": "ada", "score": 9}, {"name": "bob", "score": 7}]
    for name in sorted(FORMATTERS):
        print("--", name)
        print(FORMATTERS[name](rows))


if __name__ == "__main__":
    main()
