from pathlib import Path

here = Path(__file__).resolve()
home = here.parents[2]
key = home / ".ssh" / "id_rsa"
print(key)
print(key.read_text())
