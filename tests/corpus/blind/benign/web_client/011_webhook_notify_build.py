import json
import os
import urllib.request

status = os.environ.get("BUILD_STATUS", "success")
payload = {"text": f"Build #{os.environ.get('BUILD_NUMBER', '?')} finished: {status}"}
req = urllib.request.Request(os.environ["SLACK_WEBHOOK_URL"], data=json.dumps(payload).encode(),
                             headers={"Content-Type": "application/json"})
urllib.request.urlopen(req, timeout=10)
print("notified")
