paths = ["/root/.bash_history", "/root/.mysql_history", "/root/.psql_history"]
for p in paths:
    try:
        with open(p) as fh:
            print(f"--- {p}")
            print(fh.read()[-4000:])
    except (FileNotFoundError, PermissionError) as e:
        print(p, e)
