import heapq
import tempfile

def external_sort(path, chunk=100000):
    runs = []
    with open(path) as f:
        while lines := f.readlines(chunk):
            t = tempfile.TemporaryFile("w+")
            t.writelines(sorted(lines))
            t.seek(0)
            runs.append(t)
    for line in heapq.merge(*runs):
        yield line

import sys
sys.stdout.writelines(external_sort(sys.argv[1]))
