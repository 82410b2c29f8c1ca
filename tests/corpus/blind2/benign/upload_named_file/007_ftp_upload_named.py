import argparse
import getpass
from ftplib import FTP_TLS
from pathlib import Path

ap = argparse.ArgumentParser(description="upload a build artifact to our FTP")
ap.add_argument("artifact")
ap.add_argument("--host", default="ftp.mycompany.example")
ap.add_argument("--user", required=True)
a = ap.parse_args()

art = Path(a.artifact)
with FTP_TLS(a.host) as ftp:
    ftp.login(a.user, getpass.getpass())
    ftp.prot_p()
    with art.open("rb") as fh:
        ftp.storbinary(f"STOR releases/{art.name}", fh)
print("uploaded", art.name)
