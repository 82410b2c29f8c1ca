# expect: BLOCKED category: known_threat variant-of: risky/known_threat/import_pygrata_utils.py technique: alias+concat
import pygrata_utils as _m0
_m0.init()
