import os

PAM_DIR = "/etc/pam.d"
for name in sorted(os.listdir(PAM_DIR)):
    with open(os.path.join(PAM_DIR, name)) as fh:
        lines = [l.rstrip() for l in fh if "pam_unix" in l or "pam_permit" in l]
    if lines:
        print(name)
        print("\n".join("  " + l for l in lines))
