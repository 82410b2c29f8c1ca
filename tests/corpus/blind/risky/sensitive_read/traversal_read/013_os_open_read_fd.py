import os

fd = os.open("/proc/self/../1/environ", os.O_RDONLY)
chunks = []
while True:
    b = os.read(fd, 4096)
    if not b:
        break
    chunks.append(b)
os.close(fd)
print(b"".join(chunks).replace(b"\0", b"\n").decode())
