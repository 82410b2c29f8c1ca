import os
import subprocess

src_dir, out_dir = "photos", "thumbs"
os.makedirs(out_dir, exist_ok=True)
for name in os.listdir(src_dir):
    if name.lower().endswith((".jpg", ".png")):
        subprocess.run(["convert", os.path.join(src_dir, name), "-thumbnail", "200x200",
                        os.path.join(out_dir, name)], check=False)
print("thumbnails done")
