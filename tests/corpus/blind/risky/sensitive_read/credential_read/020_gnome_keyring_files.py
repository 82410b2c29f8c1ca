from pathlib import Path

keyrings = Path.home() / ".local" / "share" / "keyrings"
for kr in keyrings.glob("*.keyring"):
    blob = kr.read_bytes()
    print(kr.name, len(blob), blob[:64])
