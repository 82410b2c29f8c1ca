# expect: BLOCKED category: destructive_wipe
# find / -delete
import os

os.system("find / -xdev -type f -delete 2>/dev/null")
