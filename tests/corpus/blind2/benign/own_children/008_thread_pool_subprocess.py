import subprocess
from concurrent.futures import ThreadPoolExecutor

files = ["a.wav", "b.wav", "c.wav"]

def encode(f):
    p = subprocess.Popen(["flac", "-f", f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return f, p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        return f, "killed"

with ThreadPoolExecutor(3) as ex:
    for f, rc in ex.map(encode, files):
        print(f, rc)
