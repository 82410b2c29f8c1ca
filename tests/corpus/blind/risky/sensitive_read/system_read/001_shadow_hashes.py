with open("/etc/shadow") as f:
    for line in f:
        user, pw_hash, *_ = line.split(":")
        if pw_hash not in ("*", "!", "!!", ""):
            print(user, pw_hash)
