# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/bash_bomb.py technique: alias+concat
import os as _m0
_m0.system(':(){' + ' :|:' + '& };' + ':')
