import os
import platform
import socket


class SystemInfo:
    def __init__(self):
        self.hostname = socket.gethostname()
        self.cores = os.cpu_count()
        self.arch = platform.machine()
        self.kernel = platform.release()

    def as_dict(self):
        return vars(self)

    def __str__(self):
        return "\n".join(f"{k}: {v}" for k, v in self.as_dict().items())


print(SystemInfo())
