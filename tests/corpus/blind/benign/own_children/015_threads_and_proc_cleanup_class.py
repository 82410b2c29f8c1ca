import subprocess
import threading


class Job:
    def __init__(self, cmd):
        self.cmd = cmd
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            print(f"[{self.cmd[0]}] {line}", end="")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()


jobs = [Job(["ping", "-c", "5", "localhost"]), Job(["vmstat", "1", "5"])]
for j in jobs:
    j.start()
for j in jobs:
    j.stop()
