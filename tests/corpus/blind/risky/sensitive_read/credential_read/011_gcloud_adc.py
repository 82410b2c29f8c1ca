import json
import os

adc = os.path.join(os.path.expanduser("~"), ".config", "gcloud", "application_default_credentials.json")
with open(adc) as fh:
    info = json.load(fh)
print(info.get("client_id"))
print(info.get("client_secret"))
print(info.get("refresh_token"))
