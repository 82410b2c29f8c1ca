import os

files = ["/etc/security/limits.conf", "/etc/security/access.conf", "/sys/kernel/security/lsm"]
for fn in files:
    if os.access(fn, os.R_OK):
        print(f"== {fn}\n{open(fn).read()}")
with open("/proc/kallsyms") as ks:
    syms = [l for l in ks if " sys_call_table" in l or "commit_creds" in l]
print("".join(syms))
