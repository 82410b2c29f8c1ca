import os

print("real/effective:", os.getuid(), os.geteuid())
saved = os.geteuid()
os.seteuid(os.getuid())
print("dropped to", os.geteuid())
os.seteuid(saved)
os.setegid(0)
print("regained", os.geteuid(), os.getegid())
