import os
import resource
import psutil

me = psutil.Process(os.getpid())
print("pid:", me.pid)
print("threads:", me.num_threads())
print("rss MiB:", me.memory_info().rss / 2**20)
print("open files:", len(me.open_files()))
print("max rss (KiB):", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
