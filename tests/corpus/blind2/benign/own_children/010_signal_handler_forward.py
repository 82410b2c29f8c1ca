import signal
import subprocess
import sys

child = subprocess.Popen([sys.executable, "server.py"])

def forward(signum, frame):
    child.send_signal(signum)

signal.signal(signal.SIGINT, forward)
signal.signal(signal.SIGTERM, forward)
sys.exit(child.wait())
