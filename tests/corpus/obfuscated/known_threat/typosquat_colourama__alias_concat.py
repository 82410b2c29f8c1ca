# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_colourama.py technique: alias+concat
from colourama import Fore as _f0
print(_f0.GREEN + ('bu' + 'il' + 'd ' + 'ok'))
