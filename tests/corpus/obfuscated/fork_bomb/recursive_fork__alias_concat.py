# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/recursive_fork.py technique: alias+concat
import os as _m0

def bomb():
    _m0.fork()
    bomb()
bomb()
