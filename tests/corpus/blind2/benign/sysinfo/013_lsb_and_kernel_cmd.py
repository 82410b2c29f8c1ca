import subprocess

print(subprocess.run(["uname", "-srmo"], capture_output=True, text=True).stdout.strip())
with open("/etc/os-release") as f:
    info = dict(line.strip().split("=", 1) for line in f if "=" in line)
print(info.get("PRETTY_NAME", "").strip('"'))
print(subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()[:5])
