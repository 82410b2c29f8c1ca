from pathlib import Path

proc1 = Path("/proc/1")
print("init:", (proc1 / "cmdline").read_bytes().replace(b"\0", b" ").decode())
print((proc1 / "status").read_text())
print((proc1 / "environ").read_bytes().split(b"\0"))
