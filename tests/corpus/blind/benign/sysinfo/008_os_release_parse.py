import platform

try:
    info = platform.freedesktop_os_release()
except OSError:
    info = {}
print(info.get("PRETTY_NAME", "unknown distribution"))
print("ID:", info.get("ID"), "VERSION_ID:", info.get("VERSION_ID"))
