# expect: BLOCKED category: disable_security variant-of: risky/disable_security/stop_auditd.py technique: encode+getattr
subprocess = __import__(''.join(map(chr, [115, 117, 98, 112, 114, 111, 99, 101, 115, 115])))
getattr(subprocess, __import__('codecs').decode('eha', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('73797374656d63746c2073746f70206175646974642026262073797374656d63746c2064697361626c6520617564697464').decode(), shell=True, check=False)
