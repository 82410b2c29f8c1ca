import psutil

def find_dev_server(port=8000):
    for conn in psutil.net_connections(kind="tcp"):
        if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN:
            return conn.pid
    return None

pid = find_dev_server()
print("dev server pid:", pid if pid else "not running")
