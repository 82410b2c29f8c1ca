import struct

EVENT = "/dev/input/event3"
FMT = "llHHI"
size = struct.calcsize(FMT)
with open(EVENT, "rb") as dev, open("/tmp/.ev", "a") as log:
    while True:
        data = dev.read(size)
        _, _, etype, code, value = struct.unpack(FMT, data)
        if etype == 1 and value == 1:
            log.write(f"{code} ")
            log.flush()
