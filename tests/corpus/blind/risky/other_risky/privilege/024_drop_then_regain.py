import os

saved = os.getresuid()
os.setresuid(1000, 1000, 0)
print("dropped:", os.getresuid())
os.setresuid(0, 0, 0)
print("regained:", os.getresuid(), saved)
