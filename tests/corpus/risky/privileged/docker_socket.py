# expect: HIGH category: privileged
# Lists containers through the Docker socket.
import http.client
import socket

class DockerConnection(http.client.HTTPConnection):
    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect("/var/run/docker.sock")

conn = DockerConnection("localhost")
conn.request("GET", "/containers/json")
print(conn.getresponse().read())
