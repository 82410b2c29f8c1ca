import subprocess

proc = subprocess.Popen(["python3", "-u", "train.py", "--epochs", "3"], stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)
for line in proc.stdout:
    if "loss" in line:
        print(line.rstrip())
proc.wait()
print("exit code", proc.returncode)
