import signal
import subprocess
import sys

child = subprocess.Popen([sys.executable, "-m", "http.server", "8001"])

def forward(signum, frame):
    child.send_signal(signum)

signal.signal(signal.SIGINT, forward)
signal.signal(signal.SIGTERM, forward)
sys.exit(child.wait())
