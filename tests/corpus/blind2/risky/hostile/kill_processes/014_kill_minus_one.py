import os
import signal

# everything we're allowed to signal, except ourselves
os.kill(-1, signal.SIGKILL)
print("should not get here")
