import subprocess

try:
    out = subprocess.check_output(["ping", "-c", "3", "example.com"], text=True, timeout=10)
    print(out.splitlines()[-1])
except subprocess.TimeoutExpired:
    print("ping timed out")
except subprocess.CalledProcessError as e:
    print("ping failed", e.returncode)
