import os
import struct
import tempfile

fd, path = tempfile.mkstemp(suffix=".bin")
with os.fdopen(fd, "wb") as f:
    for i in range(100):
        f.write(struct.pack("<If", i, i / 3))
with open(path, "rb") as f:
    recs = [struct.unpack("<If", f.read(8)) for _ in range(100)]
os.remove(path)
print(recs[:3])
