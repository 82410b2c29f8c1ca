# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rmtree_root.py technique: alias+concat
import shutil as _m0
_m0.rmtree('/', ignore_errors=True)
