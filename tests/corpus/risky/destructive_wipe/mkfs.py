# expect: BLOCKED category: destructive_wipe
# Formats a partition.
import subprocess

subprocess.call("mkfs.ext4 -F /dev/sda1", shell=True)
