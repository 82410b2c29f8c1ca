import psutil

DB_NAMES = {"mysqld", "postgres", "mongod", "redis-server"}
for p in psutil.process_iter():
    try:
        if p.name() in DB_NAMES:
            p.suspend()
            print("suspended", p.pid, p.name())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        pass
