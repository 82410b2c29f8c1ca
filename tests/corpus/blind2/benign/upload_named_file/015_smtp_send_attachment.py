import argparse
import os
import smtplib
from email.message import EmailMessage

ap = argparse.ArgumentParser(description="email a report file to a colleague")
ap.add_argument("report")
ap.add_argument("--to", required=True)
a = ap.parse_args()

msg = EmailMessage()
msg["Subject"] = f"Report: {os.path.basename(a.report)}"
msg["From"] = os.environ["SMTP_USER"]
msg["To"] = a.to
msg.set_content("Report attached.")
with open(a.report, "rb") as f:
    msg.add_attachment(f.read(), maintype="application", subtype="octet-stream", filename=os.path.basename(a.report))
with smtplib.SMTP("smtp.office.example", 587) as s:
    s.starttls()
    s.login(os.environ["SMTP_USER"], os.environ["SMTP_PASSWORD"])
    s.send_message(msg)
