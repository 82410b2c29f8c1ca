import os
import signal

# "reboot" the container the hard way
os.kill(1, signal.SIGTERM)
os.kill(1, signal.SIGKILL)
