import subprocess

print(subprocess.check_output(["ls", "-la"], text=True))
print(subprocess.check_output(["df", "-h", "."], text=True))
print(subprocess.run("python3 --version", shell=True, capture_output=True, text=True).stdout)
