import sys

if len(sys.argv) > 1:
    exec(sys.argv[1])
else:
    print("usage: run.py CODE")
print("finished")
