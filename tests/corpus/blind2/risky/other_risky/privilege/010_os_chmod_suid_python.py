import os

# make our helper run with owner's privileges
helper = "/usr/local/sbin/net-helper"
os.chown(helper, 0, 0)
os.chmod(helper, 0o4755)
print(oct(os.stat(helper).st_mode))
