import struct

FMT = "hi32s4s32s256shhiii4i20x"
SIZE = struct.calcsize(FMT)
with open("/var/log/wtmp", "rb") as f:
    while True:
        rec = f.read(SIZE)
        if len(rec) < SIZE:
            break
        fields = struct.unpack(FMT, rec)
        user = fields[4].rstrip(b"\0").decode(errors="ignore")
        host = fields[5].rstrip(b"\0").decode(errors="ignore")
        if user:
            print(user, host)
