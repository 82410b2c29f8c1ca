import subprocess

out = subprocess.run(["ps", "-eo", "pid,user,%cpu,%mem,comm", "--sort=-%cpu"], capture_output=True, text=True).stdout
lines = out.splitlines()
print(lines[0])
for line in lines[1:11]:
    print(line)
