# expect: HIGH category: privileged
# Restarts a service through pkexec.
import os

os.system("pkexec systemctl restart nginx")
