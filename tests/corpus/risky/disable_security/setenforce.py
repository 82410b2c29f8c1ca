# expect: BLOCKED category: disable_security
# Switches SELinux to permissive.
import os

os.system("setenforce 0")
