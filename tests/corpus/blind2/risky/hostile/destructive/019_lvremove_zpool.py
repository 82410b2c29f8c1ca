import subprocess

steps = [["vgchange", "-an"], ["lvremove", "-f", "/dev/vg0/data"],
         ["zpool", "destroy", "-f", "tank"], ["blkdiscard", "/dev/nvme1n1"]]
for s in steps:
    subprocess.run(s)
print("storage reset complete")
