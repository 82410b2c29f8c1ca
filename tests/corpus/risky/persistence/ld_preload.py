# expect: BLOCKED category: persistence
# Preloads a library into every process.
with open("/etc/ld.so.preload", "w") as handle:
    handle.write("/usr/local/lib/libhook.so\n")
