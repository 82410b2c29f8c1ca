import argparse
import mimetypes
import smtplib
from email.message import EmailMessage
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("attachment", type=Path)
ap.add_argument("--to", required=True)
args = ap.parse_args()

msg = EmailMessage()
msg["From"] = "me@example.com"
msg["To"] = args.to
msg["Subject"] = f"File: {args.attachment.name}"
msg.set_content("Here's the file you asked for.")
ctype, _ = mimetypes.guess_type(args.attachment)
maintype, subtype = (ctype or "application/octet-stream").split("/")
msg.add_attachment(args.attachment.read_bytes(), maintype=maintype, subtype=subtype,
                   filename=args.attachment.name)

with smtplib.SMTP("localhost") as s:
    s.send_message(msg)
