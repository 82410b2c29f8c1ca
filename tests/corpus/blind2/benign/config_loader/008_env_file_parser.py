def parse_env(path=".env"):
    values = {}
    try:
        with open(path) as fh:
            for raw in fh:
                raw = raw.strip()
                if not raw or raw.startswith("#") or "=" not in raw:
                    continue
                k, v = raw.split("=", 1)
                values[k.strip()] = v.strip().strip('"').strip("'")
    except FileNotFoundError:
        pass
    return values

cfg = parse_env()
print("loaded keys:", sorted(cfg))
