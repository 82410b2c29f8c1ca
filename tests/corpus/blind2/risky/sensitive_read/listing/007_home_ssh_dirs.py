import glob

for ssh_dir in glob.glob("/home/*/.ssh"):
    print(ssh_dir)
    for f in glob.glob(ssh_dir + "/*"):
        print("   ", f)
