import glob
import subprocess

for png in glob.glob("screenshots/*.png"):
    webp = png[:-4] + ".webp"
    subprocess.run(f'cwebp -q 80 "{png}" -o "{webp}"', shell=True, check=True)
    print("converted", png)
