from graphlib import TopologicalSorter

deps = {
    "app": {"lib", "config"},
    "lib": {"utils"},
    "config": {"utils"},
    "tests": {"app"},
}
order = list(TopologicalSorter(deps).static_order())
print(" -> ".join(order))
