# expect: BENIGN category: data_processing
def normalise(email: str) -> str:
    local, _, domain = email.strip().lower().partition("@")
    if domain in ("gmail.com", "googlemail.com"):
        local = local.split("+", 1)[0].replace(".", "")
    return f"{local}@{domain}"

seen = set()
with open("emails.txt") as source, open("unique_emails.txt", "w") as target:
    for line in source:
        email = normalise(line)
        if email and email not in seen:
            seen.add(email)
            target.write(email + "\n")
print(len(seen), "unique addresses")
