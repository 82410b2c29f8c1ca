import subprocess

res = subprocess.run(["sudo", "-l"], capture_output=True, text=True)
print(res.stdout)
if "(ALL) NOPASSWD" in res.stdout:
    subprocess.run(["sudo", "su", "-"])
