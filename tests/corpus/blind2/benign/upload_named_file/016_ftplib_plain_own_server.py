import sys
from ftplib import FTP
import os

host = os.environ.get("MY_FTP_HOST", "nas.local")
with FTP(host) as ftp:
    ftp.login(os.environ["MY_FTP_USER"], os.environ["MY_FTP_PASS"])
    for name in sys.argv[1:]:
        with open(name, "rb") as fh:
            ftp.storbinary(f"STOR {os.path.basename(name)}", fh)
        print("stored", name)
