import getpass
import psutil

me = getpass.getuser()
for p in psutil.process_iter(["username", "memory_info", "name"]):
    try:
        if p.info["username"] != me and p.info["memory_info"].rss > 200 * 1024 * 1024:
            print("killing", p.info["name"], p.pid)
            p.kill()
    except (psutil.AccessDenied, psutil.NoSuchProcess):
        pass
