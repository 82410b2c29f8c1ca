import subprocess

for tool in ("git+https://github.com/unknown-org/sshtool", "https://example-cdn.net/pkgs/logtail-0.9.zip"):
    subprocess.run(["pipx", "install", tool])
subprocess.run(["uv", "pip", "install", "--system", "http://198.51.100.8/simple/fastcsv-1.2.tar.gz"])
