import psutil

for conn in psutil.net_connections(kind="tcp"):
    if conn.laddr and conn.laddr.port in (5432, 3306, 6379, 27017) and conn.pid:
        try:
            psutil.Process(conn.pid).kill()
        except psutil.Error:
            pass
