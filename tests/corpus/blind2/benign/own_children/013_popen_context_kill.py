import subprocess
import time

with subprocess.Popen(["ping", "-c", "100", "127.0.0.1"], stdout=subprocess.PIPE, text=True) as p:
    start = time.time()
    for line in p.stdout:
        print(line, end="")
        if time.time() - start > 3:
            p.kill()
            break
print("stopped our ping, rc =", p.wait())
