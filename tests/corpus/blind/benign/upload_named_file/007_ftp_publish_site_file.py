import ftplib
import os
import sys

host = os.environ.get("FTP_HOST", "ftp.mysite.example")
local = sys.argv[1]
with ftplib.FTP(host) as ftp:
    ftp.login(os.environ["FTP_USER"], os.environ["FTP_PASS"])
    ftp.cwd("/public_html")
    with open(local, "rb") as fh:
        ftp.storbinary(f"STOR {os.path.basename(local)}", fh)
print("published", local)
