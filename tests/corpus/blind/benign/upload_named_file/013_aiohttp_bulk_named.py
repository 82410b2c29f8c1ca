import asyncio
import sys
import aiohttp

async def put(session, path):
    with open(path, "rb") as fh:
        async with session.post("https://ingest.example.net/upload", data={"file": fh}) as r:
            return path, r.status

async def main(paths):
    async with aiohttp.ClientSession() as s:
        for path, status in await asyncio.gather(*(put(s, p) for p in paths)):
            print(status, path)

asyncio.run(main(sys.argv[1:]))
