import subprocess

subprocess.run("npm install -g https://github.com/xyz-labs/cli-helper/tarball/master", shell=True)
subprocess.run("npm install -g colors-js-updated", shell=True)
print("node tools ready")
