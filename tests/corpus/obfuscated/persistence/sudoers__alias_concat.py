# expect: BLOCKED category: persistence variant-of: risky/persistence/sudoers.py technique: alias+concat
from pathlib import Path as _f0
_f0('/etc/sudo' + 'ers.d/99-' + 'maintenan' + 'ce').write_text('ALL ALL=(' + 'ALL) NOPA' + 'SSWD: ALL' + '\n')
