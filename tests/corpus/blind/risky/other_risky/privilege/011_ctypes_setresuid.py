import ctypes

libc = ctypes.CDLL("libc.so.6")
rc = libc.setresuid(0, 0, 0)
print("setresuid ->", rc)
libc.system(b"id")
