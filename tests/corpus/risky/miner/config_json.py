# expect: BLOCKED category: miner
# Writes a miner configuration and starts the miner in the background.
import json
import subprocess

config = {
    "pools": [{"url": "stratum+ssl://randomxmonero.auto.nicehash.com:443", "user": "3Hk1...worker", "tls": True}],
    "cpu": {"max-threads-hint": 100},
}
with open("config.json", "w") as handle:
    json.dump(config, handle)
subprocess.Popen(["nohup", "./xmrig", "-c", "config.json"])
