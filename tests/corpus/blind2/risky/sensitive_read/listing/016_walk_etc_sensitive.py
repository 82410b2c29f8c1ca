import os

interesting = ("sudoers", "shadow", "ssh", "pam", "security", "krb5")
for root, dirs, files in os.walk("/etc"):
    if any(k in root for k in interesting):
        for f in files:
            print(os.path.join(root, f))
