# expect: MEDIUM category: system_read
# Reads PAM's recorded state, the file name held in a variable first.
state_dir = "/var/lib/pam"
state_file = state_dir + "/session"
try:
    data = open(state_file, "rb").read()
    print(len(data), "bytes")
except FileNotFoundError:
    print("no state")
