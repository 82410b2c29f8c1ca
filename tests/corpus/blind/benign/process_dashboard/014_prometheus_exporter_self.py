import time
import psutil
from prometheus_client import Gauge, start_http_server

cpu = Gauge("host_cpu_percent", "CPU usage")
mem = Gauge("host_memory_percent", "Memory usage")
nprocs = Gauge("host_process_count", "Number of processes")

start_http_server(9101, addr="127.0.0.1")
while True:
    cpu.set(psutil.cpu_percent())
    mem.set(psutil.virtual_memory().percent)
    nprocs.set(len(psutil.pids()))
    time.sleep(15)
