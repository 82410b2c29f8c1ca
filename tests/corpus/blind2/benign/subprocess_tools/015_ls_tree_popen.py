import subprocess

p = subprocess.Popen(["ls", "-R", "src"], stdout=subprocess.PIPE, text=True)
dirs = files = 0
for line in p.stdout:
    line = line.rstrip()
    if line.endswith(":"):
        dirs += 1
    elif line:
        files += 1
p.wait()
print(f"{dirs} dirs, {files} entries")
