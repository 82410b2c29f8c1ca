# expect: HIGH category: sensitive_copy
# Makes the authentication log readable from the working directory through a link.
import os

if not os.path.exists("auth.log"):
    os.symlink("/var/log/auth.log", "auth.log")
