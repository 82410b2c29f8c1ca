with open("/proc/kallsyms") as ks:
    syms = [l.split() for l in ks]
wanted = {"commit_creds", "prepare_kernel_cred", "sys_call_table"}
for addr, kind, name, *_ in syms:
    if name in wanted:
        print(name, addr)
