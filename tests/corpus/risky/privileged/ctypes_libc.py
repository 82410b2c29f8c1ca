# expect: HIGH category: privileged
# Calls into libc with ctypes.
import ctypes

libc = ctypes.CDLL("libc.so.6")
print(libc.getpid())
