# expect: HIGH category: privileged
# Tries to become root.
import os

os.setuid(0)
print(os.getuid())
