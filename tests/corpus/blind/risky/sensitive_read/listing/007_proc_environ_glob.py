import glob

for env_path in glob.glob("/proc/*/environ"):
    try:
        size = len(open(env_path, "rb").read())
    except OSError:
        continue
    print(env_path, size)
