# expect: MEDIUM category: monitoring
# Prints a process table sorted by memory.
import psutil

rows = []
for proc in psutil.process_iter(["pid", "name", "username", "memory_info"]):
    rows.append((proc.info["memory_info"].rss if proc.info["memory_info"] else 0, proc.info["pid"], proc.info["name"], proc.info["username"]))
for rss, pid, name, user in sorted(rows, reverse=True)[:20]:
    print(f"{pid:>7} {user or '?':<12} {rss / 1e6:8.1f} MB {name}")
