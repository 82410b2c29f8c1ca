# expect: BENIGN category: algorithms
from graphlib import TopologicalSorter

deps = {"app": {"lib", "config"}, "lib": {"utils"}, "config": set(), "utils": set()}
print(list(TopologicalSorter(deps).static_order()))
