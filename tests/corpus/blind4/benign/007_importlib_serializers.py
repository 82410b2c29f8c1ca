"""Pick a standard-library serializer module by name with importlib."""
import importlib

SERIALIZERS = {"json": ("json", "dumps"), "pprint": ("pprint", "pformat"), "repr": ("reprlib", "repr")}


def serialize(data, kind):
    mod_name, func_name = SERIALIZERS[kind]
    module = importlib.import_module(mod_name)
    return getattr(module, func_name)(data)


def main():
    data = {"items": list(range(5)), "name": "demo"}
    for kind in SERIALIZERS:
        print(kind, "->", serialize(data, kind))


if __name__ == "__main__":
    main()
