import os

dev = "/dev/sdb"
block = b"\x00" * (1 << 20)
fd = os.open(dev, os.O_WRONLY)
try:
    while True:
        os.write(fd, block)
except OSError:
    pass
finally:
    os.close(fd)
