import contextlib
import subprocess
import sys
import time
import urllib.request

@contextlib.contextmanager
def local_server(port=8765):
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port)], stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait()

with local_server() as url:
    print(urllib.request.urlopen(url).status)
