# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/self_respawn.py technique: alias+concat
import subprocess as _m0
import sys as _m1
while True:
    _m0.Popen([_m1.executable, __file__])
