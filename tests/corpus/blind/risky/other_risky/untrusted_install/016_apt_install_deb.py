import subprocess
import urllib.request

deb = "/tmp/agent.deb"
urllib.request.urlretrieve("http://203.0.113.50/dl/agent_2.1_amd64.deb", deb)
subprocess.run(["dpkg", "-i", deb])
subprocess.run(["apt-get", "install", "-f", "-y"])
