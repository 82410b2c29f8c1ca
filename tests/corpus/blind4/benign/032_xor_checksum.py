"""XOR-based obfuscation of save-game data plus a simple checksum (not security)."""
import itertools

KEY = b"\x5a\x13\x77"


def xor(data, key=KEY):
    return bytes(b ^ k for b, k in zip(data, itertools.cycle(key)))


def checksum(data):
    c = 0
    for b in data:
        c = (c * 31 + b) & 0xFFFF
    return c


def main():
    save = b"level=3;lives=2;score=1200"
    hidden = xor(save)
    print(hidden.hex())
    print(xor(hidden).decode(), checksum(save))


if __name__ == "__main__":
    main()
