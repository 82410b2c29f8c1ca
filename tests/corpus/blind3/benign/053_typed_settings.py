import builtins
import tomllib

DOC = """
[server]
port = "8080"
debug = "true"
workers = "4"
ratio = "0.5"

[types]
port = "int"
debug = "bool"
workers = "int"
ratio = "float"
"""

ALLOWED = {"int", "float", "str", "bool"}


def to_bool(text):
    return str(text).lower() in ("1", "true", "yes", "on")


def coerce(value, type_name):
    if type_name not in ALLOWED:
        raise ValueError(type_name)
    if type_name == "bool":
        return to_bool(value)
    return getattr(builtins, type_name)(value)


if __name__ == "__main__":
    doc = tomllib.loads(DOC)
    typed = {k: coerce(v, doc["types"].get(k, "str")) for k, v in doc["server"].items()}
    for k, v in typed.items():
        print(k, repr(v), type(v).__name__)
