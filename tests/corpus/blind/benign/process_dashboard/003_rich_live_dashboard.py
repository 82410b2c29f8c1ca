import time
import psutil
from rich.live import Live
from rich.table import Table

def build():
    t = Table(title="Processes")
    for col in ("PID", "Name", "CPU %", "RSS MiB"):
        t.add_column(col)
    top = sorted(psutil.process_iter(["pid", "name", "cpu_percent", "memory_info"]),
                 key=lambda p: p.info["cpu_percent"] or 0, reverse=True)[:12]
    for p in top:
        t.add_row(str(p.info["pid"]), p.info["name"] or "", f"{p.info['cpu_percent']:.1f}",
                  f"{(p.info['memory_info'].rss if p.info['memory_info'] else 0) / 2**20:.0f}")
    return t

with Live(build(), refresh_per_second=1) as live:
    for _ in range(30):
        time.sleep(1)
        live.update(build())
