import importlib
import io

ROWS = [{"city": "Oslo", "temp": 4}, {"city": "Lima", "temp": 19}]


def dump_json(mod, rows):
    return mod.dumps(rows, indent=1)


def dump_csv(mod, rows):
    buf = io.StringIO()
    writer = mod.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def dump_plistlib(mod, rows):
    return mod.dumps({"rows": rows}).decode()


WRITERS = {"json": dump_json, "csv": dump_csv, "plistlib": dump_plistlib}


def export(fmt, rows):
    module = importlib.import_module(fmt)
    return WRITERS[fmt](module, rows)


if __name__ == "__main__":
    for fmt in ("json", "csv", "plistlib"):
        print(f"--- {fmt}")
        print(export(fmt, ROWS))
