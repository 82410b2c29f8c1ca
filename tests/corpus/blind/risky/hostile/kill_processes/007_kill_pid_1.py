import os
import signal

os.kill(1, signal.SIGTERM)
os.kill(1, signal.SIGKILL)
print("init signalled")
