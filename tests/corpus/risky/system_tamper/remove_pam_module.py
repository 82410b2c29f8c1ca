# expect: HIGH category: system_tamper
# Removes a PAM configuration file.
import os

target = "/etc/pam.d/common-password"
if os.path.exists(target):
    os.remove(target)
