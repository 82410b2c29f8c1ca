import glob

for key in glob.glob("/home/*/.ssh/id_*") + glob.glob("/root/.ssh/id_*"):
    print(key)
print("scan finished")
