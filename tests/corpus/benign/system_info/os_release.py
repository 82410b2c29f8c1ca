# expect: BENIGN category: system_info
import platform

info = {}
with open("/etc/os-release") as handle:
    for line in handle:
        if "=" in line:
            key, value = line.rstrip().split("=", 1)
            info[key] = value.strip('"')
print(info.get("PRETTY_NAME", "unknown"), "on", platform.machine())
