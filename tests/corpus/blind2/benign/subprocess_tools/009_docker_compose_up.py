import subprocess
import sys

action = sys.argv[1] if len(sys.argv) > 1 else "up"
if action == "up":
    subprocess.run(["docker", "compose", "up", "-d", "--build"], check=True)
elif action == "down":
    subprocess.run(["docker", "compose", "down"], check=True)
subprocess.run(["docker", "compose", "ps"])
