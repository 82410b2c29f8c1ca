import asyncio
import os
import sys
import aiohttp

async def upload(path):
    token = os.environ["NOTES_API_TOKEN"]
    async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as s:
        with open(path, "rb") as fh:
            form = aiohttp.FormData()
            form.add_field("attachment", fh, filename=os.path.basename(path))
            async with s.post("https://notes.example.com/api/attachments", data=form) as r:
                print(r.status, await r.text())

asyncio.run(upload(sys.argv[1]))
