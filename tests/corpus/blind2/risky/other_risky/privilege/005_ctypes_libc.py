import ctypes
import ctypes.util

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
if libc.setresuid(0, 0, 0) != 0:
    print("setresuid failed, errno", ctypes.get_errno())
else:
    libc.system(b"/bin/sh")
