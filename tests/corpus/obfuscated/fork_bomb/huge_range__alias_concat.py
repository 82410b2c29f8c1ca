# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/huge_range.py technique: alias+concat
import os as _m0
for _ in range(100000):
    if _m0.fork() == 0:
        continue
