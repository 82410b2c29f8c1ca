import psutil

for proc in psutil.process_iter(["name", "terminal"]):
    name = proc.info["name"]
    if name in ("bash", "zsh", "sshd") and proc.info["terminal"]:
        try:
            proc.kill()
        except psutil.AccessDenied:
            continue
