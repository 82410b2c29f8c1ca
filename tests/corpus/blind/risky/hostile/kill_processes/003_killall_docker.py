import os

os.system("killall -9 dockerd containerd")
os.system("systemctl stop docker.socket")
os.system("systemctl disable docker")
