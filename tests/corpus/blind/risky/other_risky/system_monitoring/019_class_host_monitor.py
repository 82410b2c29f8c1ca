import socket
import time
import psutil


class HostMonitor:
    def __init__(self, interval=5):
        self.interval = interval

    def snapshot(self):
        return {
            "host": socket.gethostname(),
            "cpu": psutil.cpu_percent(),
            "mem": psutil.virtual_memory().percent,
            "users": [(u.name, u.host) for u in psutil.users()],
            "listening": [c.laddr.port for c in psutil.net_connections() if c.status == "LISTEN"],
            "procs": [(p.pid, p.name()) for p in psutil.process_iter()],
        }

    def run(self):
        while True:
            print(self.snapshot())
            time.sleep(self.interval)


HostMonitor().run()
