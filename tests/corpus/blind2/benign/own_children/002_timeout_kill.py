import subprocess

proc = subprocess.Popen(["python3", "long_job.py"], stdout=subprocess.PIPE)
try:
    out, _ = proc.communicate(timeout=30)
    print(out.decode())
except subprocess.TimeoutExpired:
    proc.kill()
    proc.communicate()
    print("job timed out and was killed")
