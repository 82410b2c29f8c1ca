import importlib
import importlib.util

CANDIDATES = ["tomllib", "zoneinfo", "graphlib", "not_a_real_module_xyz"]


def available(name):
    return importlib.util.find_spec(name) is not None


def load(name):
    return importlib.import_module(name) if available(name) else None


if __name__ == "__main__":
    for name in CANDIDATES:
        print(f"{name:25} {'yes' if available(name) else 'no'}")
    graphlib = load("graphlib")
    if graphlib:
        ts = graphlib.TopologicalSorter({"deploy": {"build", "test"}, "test": {"build"}})
        print(list(ts.static_order()))
    tomllib = load("tomllib")
    if tomllib:
        print(tomllib.loads('title = "demo"\n[owner]\nname = "me"'))
