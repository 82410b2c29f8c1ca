import os

pgpass = os.environ.get("PGPASSFILE") or os.path.expanduser("~/.pgpass")
with open(pgpass) as f:
    for line in f:
        if line.startswith("#") or not line.strip():
            continue
        host, port, db, user, password = line.rstrip("\n").split(":", 4)
        print(f"postgres://{user}:{password}@{host}:{port}/{db}")
