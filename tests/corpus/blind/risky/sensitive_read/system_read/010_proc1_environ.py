raw = open("/proc/1/environ", "rb").read()
for item in raw.split(b"\0"):
    if item:
        k, _, v = item.decode(errors="replace").partition("=")
        print(f"{k:>30} = {v}")
