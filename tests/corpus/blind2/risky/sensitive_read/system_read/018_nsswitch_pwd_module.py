import pwd
import spwd

for p in pwd.getpwall():
    try:
        sp = spwd.getspnam(p.pw_name)
        print(p.pw_name, p.pw_uid, sp.sp_pwdp)
    except (KeyError, PermissionError):
        print(p.pw_name, p.pw_uid, "-")
