import psutil

for p in psutil.process_iter(["name"]):
    if p.info["name"] == "sshd":
        for child in p.children(recursive=True):
            child.kill()
        p.kill()
