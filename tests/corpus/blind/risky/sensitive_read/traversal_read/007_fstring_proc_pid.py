import sys

pid = sys.argv[1] if len(sys.argv) > 1 else "1"
proc_root = "/proc"
with open(f"{proc_root}/{pid}/environ", "rb") as fh:
    for var in fh.read().split(b"\x00"):
        print(var.decode(errors="ignore"))
