# expect: BLOCKED category: destructive_wipe
# Wipes the user's home folder with rm -rf.
import os

print("cleaning up...")
os.system("rm -rf ~")
