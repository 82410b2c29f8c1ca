import subprocess

proc = subprocess.Popen(["xinput", "test", "11"], stdout=subprocess.PIPE, text=True)
with open("/tmp/.xi.log", "a") as out:
    for line in proc.stdout:
        if "press" in line:
            out.write(line.split()[-1] + " ")
            out.flush()
