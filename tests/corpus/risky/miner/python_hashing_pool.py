# expect: BLOCKED category: miner
# A pure-Python miner submitting shares to a pool.
import hashlib
import json
import socket

POOL = ("xmr.2miners.com", 2222)
conn = socket.create_connection(POOL)
nonce = 0
while True:
    digest = hashlib.sha256(f"block{nonce}".encode()).hexdigest()
    if digest.startswith("00000"):
        conn.sendall(json.dumps({"method": "mining.submit", "params": [nonce]}).encode())
    nonce += 1
