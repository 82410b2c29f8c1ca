import subprocess

def sudo_write(path, text):
    subprocess.run(["sudo", "tee", path], input=text, text=True, stdout=subprocess.DEVNULL, check=True)

sudo_write("/etc/sysctl.d/99-custom.conf", "kernel.yama.ptrace_scope = 0\n")
subprocess.run(["sudo", "sysctl", "--system"])
