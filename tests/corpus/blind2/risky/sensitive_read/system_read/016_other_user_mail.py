import mailbox

for user in ("root", "admin", "www-data"):
    try:
        box = mailbox.mbox(f"/var/mail/{user}")
        for msg in box:
            print(user, msg["From"], msg["Subject"])
    except Exception as e:
        print(user, e)
