# expect: MEDIUM category: system_read
# Prints every SSH daemon and client configuration file.
import glob

for path in sorted(glob.glob("/etc/ssh/*_config")):
    print("==", path)
    print(open(path).read())
