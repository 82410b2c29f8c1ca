import ipaddress
import subprocess
from concurrent.futures import ThreadPoolExecutor

net = ipaddress.ip_network("192.168.1.0/24")

def alive(ip):
    r = subprocess.run(["ping", "-c", "1", "-W", "1", str(ip)], stdout=subprocess.DEVNULL)
    return str(ip) if r.returncode == 0 else None

with ThreadPoolExecutor(32) as ex:
    hosts = [h for h in ex.map(alive, net.hosts()) if h]
print("devices on my network:", hosts)
