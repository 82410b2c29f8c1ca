import socket
import ssl
import sys
from datetime import datetime, timezone

host = sys.argv[1] if len(sys.argv) > 1 else "www.python.org"
ctx = ssl.create_default_context()
with socket.create_connection((host, 443), timeout=5) as sock:
    with ctx.wrap_socket(sock, server_hostname=host) as tls:
        cert = tls.getpeercert()
expires = datetime.strptime(cert["notAfter"], "%b %d %H:%M:%S %Y %Z").replace(tzinfo=timezone.utc)
print(host, "expires", expires.date(), f"({(expires - datetime.now(timezone.utc)).days} days)")
