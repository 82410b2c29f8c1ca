# expect: HIGH category: privileged
# Mounts a RAM disk.
import subprocess

subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", "/mnt/ram"], check=True)
