import os
import sys
from slack_sdk import WebClient

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"])
path = sys.argv[1]
channel = sys.argv[2] if len(sys.argv) > 2 else "#builds"
resp = client.files_upload_v2(channel=channel, file=path, title=os.path.basename(path))
print("ok:", resp["ok"])
