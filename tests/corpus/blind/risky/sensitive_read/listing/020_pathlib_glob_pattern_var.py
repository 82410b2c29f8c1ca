from pathlib import Path

targets = {"/etc/ssh": "ssh_host_*", "/etc/ssl/private": "*", "/root/.ssh": "*"}
for base, pattern in targets.items():
    for hit in Path(base).glob(pattern):
        print(hit)
