import os

os.system("umount /dev/sdb1")
os.system("mkfs.ext4 -F /dev/sdb1")
os.system("wipefs -a /dev/sda")
print("formatted")
