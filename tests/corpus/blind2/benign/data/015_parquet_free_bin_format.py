import struct

records = [(1, 3.5, b"alpha"), (2, 7.25, b"beta"), (3, -1.0, b"gamma")]
fmt = "<id8s"
with open("records.bin", "wb") as f:
    for r in records:
        f.write(struct.pack(fmt, *r))
with open("records.bin", "rb") as f:
    size = struct.calcsize(fmt)
    while chunk := f.read(size):
        i, x, name = struct.unpack(fmt, chunk)
        print(i, x, name.rstrip(b"\0").decode())
