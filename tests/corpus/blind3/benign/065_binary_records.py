import ctypes


class Header(ctypes.LittleEndianStructure):
    _pack_ = 1
    _fields_ = [("magic", ctypes.c_char * 4), ("version", ctypes.c_uint16), ("count", ctypes.c_uint32)]


class Sample(ctypes.LittleEndianStructure):
    _pack_ = 1
    _fields_ = [("t", ctypes.c_uint32), ("value", ctypes.c_float), ("flags", ctypes.c_uint8)]


def encode(samples):
    header = Header(b"SMPL", 1, len(samples))
    arr = (Sample * len(samples))(*samples)
    return bytes(header) + bytes(arr)


def decode(blob):
    header = Header.from_buffer_copy(blob)
    arr_type = Sample * header.count
    arr = arr_type.from_buffer_copy(blob, ctypes.sizeof(Header))
    return header, [(s.t, round(s.value, 3), s.flags) for s in arr]


if __name__ == "__main__":
    blob = encode([Sample(0, 1.5, 0), Sample(10, 2.25, 1), Sample(20, -0.75, 3)])
    print(len(blob), "bytes:", blob[:10].hex())
    header, samples = decode(blob)
    print(header.magic, header.version, header.count)
    print(samples)
    print({name: ctypes.sizeof(t) for name, t in [("Header", Header), ("Sample", Sample)]})
