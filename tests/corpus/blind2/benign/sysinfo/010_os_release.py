import platform

try:
    info = platform.freedesktop_os_release()
    print(info.get("PRETTY_NAME"))
except OSError:
    print(platform.platform())
print("kernel:", platform.release())
print("arch:", platform.machine())
