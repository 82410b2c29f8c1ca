import subprocess

out = subprocess.check_output(["ls", "-la", "."], text=True)
for line in out.splitlines()[1:]:
    parts = line.split(None, 8)
    if len(parts) == 9:
        print(f"{parts[4]:>10}  {parts[8]}")
