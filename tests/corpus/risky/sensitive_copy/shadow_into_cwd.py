# expect: HIGH category: sensitive_copy
# Copies the password hashes next to the program.
import shutil

shutil.copy("/etc/shadow", "shadow.copy")
print("copied")
