import binascii
import struct
import zlib

SIGNATURE = bytes.fromhex("89504e470d0a1a0a")


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", binascii.crc32(kind + data))


def make_png(w, h):
    raw = b"".join(b"\x00" + bytes((x * 40) % 256 for x in range(w)) for _ in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def inspect_png(blob):
    assert blob[:8] == SIGNATURE, "not a PNG"
    pos, out = 8, []
    while pos < len(blob):
        (length,) = struct.unpack(">I", blob[pos:pos + 4])
        kind = blob[pos + 4:pos + 8]
        data = blob[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", blob[pos + 8 + length:pos + 12 + length])
        out.append((kind.decode(), length, crc == binascii.crc32(kind + data)))
        pos += 12 + length
    return out


if __name__ == "__main__":
    png = make_png(6, 4)
    print(len(png), "bytes")
    for row in inspect_png(png):
        print(row)
    print(binascii.hexlify(png[:16], " ").decode())
