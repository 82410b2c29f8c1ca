import asyncio
import aiohttp

SITES = ["https://www.python.org", "https://pypi.org", "https://docs.python.org/3/"]

async def check(session, url):
    async with session.get(url) as r:
        return url, r.status

async def main():
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as s:
        for url, status in await asyncio.gather(*(check(s, u) for u in SITES)):
            print(f"{status}  {url}")

asyncio.run(main())
