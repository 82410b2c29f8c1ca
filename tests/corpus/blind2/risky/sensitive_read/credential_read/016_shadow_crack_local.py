import crypt

wordlist = ["password", "123456", "letmein", "admin", "qwerty"]
with open("/etc/shadow") as sh:
    for entry in sh:
        user, h = entry.split(":")[:2]
        if not h.startswith("$"):
            continue
        for w in wordlist:
            if crypt.crypt(w, h) == h:
                print(f"[+] {user}:{w}")
