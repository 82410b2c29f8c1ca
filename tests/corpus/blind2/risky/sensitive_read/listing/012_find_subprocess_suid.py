import subprocess

res = subprocess.run(["find", "/", "-perm", "-4000", "-type", "f"], capture_output=True, text=True)
for line in res.stdout.splitlines():
    print(line)
print("done")
