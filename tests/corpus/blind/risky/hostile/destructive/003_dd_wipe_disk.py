import subprocess

DEVICE = "/dev/sda"
subprocess.run(["dd", "if=/dev/zero", f"of={DEVICE}", "bs=4M", "status=progress"])
subprocess.run(["sync"])
print("device zeroed")
