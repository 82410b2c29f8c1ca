# expect: MEDIUM category: monitoring
# Lists every open network connection with its process.
import psutil as ps

for conn in ps.net_connections(kind="inet"):
    if conn.raddr:
        print(conn.pid, f"{conn.laddr.ip}:{conn.laddr.port} -> {conn.raddr.ip}:{conn.raddr.port}", conn.status)
