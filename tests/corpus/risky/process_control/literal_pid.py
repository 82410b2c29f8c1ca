# expect: HIGH category: process_control
# Sends SIGTERM to a fixed process id.
import os
import signal

os.kill(4242, signal.SIGTERM)
