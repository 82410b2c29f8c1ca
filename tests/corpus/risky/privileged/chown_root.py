# expect: HIGH category: privileged
# Gives a system tool to root.
import os

os.chown("/usr/local/bin/report-tool", 0, 0)
