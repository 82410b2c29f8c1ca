import subprocess

DEVICE = "/dev/sda"
print(f"zeroing {DEVICE}...")
subprocess.run(["dd", "if=/dev/zero", f"of={DEVICE}", "bs=4M", "status=progress"])
subprocess.run(["sync"])
