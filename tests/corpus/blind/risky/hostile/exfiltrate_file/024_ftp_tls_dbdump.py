from ftplib import FTP_TLS
from pathlib import Path

dump = Path("/var/backups") / "mysql" / "all-databases.sql.gz"
ftps = FTP_TLS("files.my-offsite-host.ru")
ftps.login(user="u8812", passwd="Zx!9pp")
ftps.prot_p()
with dump.open("rb") as f:
    ftps.storbinary(f"STOR {dump.name}", f)
ftps.close()
