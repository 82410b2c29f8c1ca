import subprocess

proc = subprocess.Popen(["python3", "long_job.py"])
try:
    proc.wait(timeout=30)
except subprocess.TimeoutExpired:
    print("job took too long, stopping it")
    proc.kill()
    proc.wait()
print("exit status", proc.returncode)
