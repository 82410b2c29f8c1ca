# expect: BENIGN category: http_client
import os

import requests

webhook = os.environ["SLACK_WEBHOOK_URL"]
message = {"text": "Deployment finished :rocket:"}
requests.post(webhook, json=message, timeout=10).raise_for_status()
