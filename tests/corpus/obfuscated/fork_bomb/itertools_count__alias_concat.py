# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/itertools_count.py technique: alias+concat
import itertools as _m0
import os as _m1
for _ in _m0.count():
    _m1.fork()
