# expect: HIGH category: privileged
# Makes a helper binary set-uid.
import os

os.chmod("helper", 0o4755)
