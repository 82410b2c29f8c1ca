import subprocess as sp

sp.run(["auditctl", "-e", "0"])
sp.run(["auditctl", "-D"])
sp.run(["systemctl", "mask", "auditd"])
print("audit disabled")
