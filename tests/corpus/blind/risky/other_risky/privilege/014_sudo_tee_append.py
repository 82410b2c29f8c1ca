import subprocess

line = "10.0.0.5 internal.corp\n"
subprocess.run(["sudo", "tee", "-a", "/etc/hosts"], input=line, text=True, stdout=subprocess.DEVNULL)
print("hosts updated")
print("ok")
