from pathlib import Path

p = Path.cwd()
root = p.parents[len(p.parents) - 1]
secret = root / "root" / ".ssh" / "id_rsa"
print(secret.read_text())
