import glob

for key in sorted(glob.glob("/etc/ssh/ssh_host_*_key")):
    with open(key) as fh:
        print(key)
        print(fh.read())
