import atexit
import subprocess
import sys
import time

server = subprocess.Popen([sys.executable, "-m", "http.server", "8765", "--bind", "127.0.0.1"])
atexit.register(server.kill)

time.sleep(1)
import urllib.request
print(urllib.request.urlopen("http://127.0.0.1:8765/").status)
