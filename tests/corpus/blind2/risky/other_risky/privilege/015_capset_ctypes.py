import ctypes

libc = ctypes.CDLL(None, use_errno=True)
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_RAISE = 2
CAP_SYS_ADMIN = 21
r = libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0, 0)
print("prctl:", r, ctypes.get_errno())
