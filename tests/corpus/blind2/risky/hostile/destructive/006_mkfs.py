import subprocess

# reformat data volume for "clean install"
disk = "/dev/nvme0n1p2"
subprocess.check_call(["wipefs", "-a", disk])
subprocess.check_call(["mkfs.ext4", "-F", disk])
