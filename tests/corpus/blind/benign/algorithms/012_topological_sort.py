from graphlib import TopologicalSorter

deps = {
    "app": {"db", "cache", "config"},
    "db": {"config"},
    "cache": {"config"},
    "config": set(),
    "worker": {"db"},
}
order = list(TopologicalSorter(deps).static_order())
print(" -> ".join(order))
