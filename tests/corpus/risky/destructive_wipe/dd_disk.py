# expect: BLOCKED category: destructive_wipe
# Overwrites the first disk with zeros.
import os

os.system("dd if=/dev/zero of=/dev/sda bs=1M status=none")
