import subprocess

subprocess.run(["npm", "install", "-g", "http://203.0.113.12/pkgs/cli-tools-2.1.0.tgz"])
subprocess.run(["gem", "install", "--source", "http://gems.cheap-mirror.io", "rails-helpers"])
print("toolchain ready")
