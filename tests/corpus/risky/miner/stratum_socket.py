# expect: BLOCKED category: miner
# Speaks the stratum mining protocol to a pool.
import json
import socket

pool = socket.create_connection(("pool.minexmr.com", 4444))
pool.sendall(json.dumps({"id": 1, "method": "mining.subscribe", "params": []}).encode() + b"\n")
pool.sendall(json.dumps({"id": 2, "method": "mining.authorize", "params": ["worker1", "x"]}).encode() + b"\n")
print(pool.recv(4096))
