# expect: HIGH category: sensitive_copy
# Copies the whole SSH configuration folder into the working directory.
import shutil

shutil.copytree("/etc/ssh", "ssh_settings", dirs_exist_ok=True)
