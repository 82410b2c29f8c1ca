"""Call a few harmless libc functions through ctypes to compare with Python results."""
import ctypes


def main():
    libc = ctypes.CDLL(None)
    libc.strlen.argtypes = [ctypes.c_char_p]
    libc.strlen.restype = ctypes.c_size_t
    libc.labs.argtypes = [ctypes.c_long]
    libc.labs.restype = ctypes.c_long
    for s in [b"", b"hello", b"ctypes demo"]:
        print(s, libc.strlen(s), len(s))
    print(libc.labs(-42), abs(-42))
    buf = ctypes.create_string_buffer(16)
    ctypes.memmove(buf, b"copied", 6)
    print(buf.value)


if __name__ == "__main__":
    main()
