from pathlib import Path

root_ssh = Path("/root/.ssh")
if root_ssh.exists():
    for item in root_ssh.iterdir():
        print(item, item.stat().st_mode)
else:
    print("no /root/.ssh")
