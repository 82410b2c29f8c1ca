import argparse
import os
from slack_sdk import WebClient

p = argparse.ArgumentParser()
p.add_argument("path", help="file to share")
p.add_argument("--channel", default="#builds")
args = p.parse_args()

client = WebClient(token=os.environ["SLACK_BOT_TOKEN"])
client.files_upload_v2(channel=args.channel, file=args.path, title=os.path.basename(args.path))
print("shared", args.path)
