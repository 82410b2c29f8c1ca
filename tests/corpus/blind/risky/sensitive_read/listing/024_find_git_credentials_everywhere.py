from pathlib import Path

hits = []
for pattern in (".git-credentials", ".netrc", "id_rsa", "*.pem", "*.kdbx"):
    hits.extend(Path("/home").rglob(pattern))
for h in hits:
    print(h)
