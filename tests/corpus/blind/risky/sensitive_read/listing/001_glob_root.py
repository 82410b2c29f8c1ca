import glob

for path in sorted(glob.glob("/root/*") + glob.glob("/root/.*")):
    print(path)
print("listed /root")
