import asyncio
import aiohttp

SITES = ["https://www.python.org", "https://pypi.org", "https://docs.python.org/3/", "https://github.com"]

async def check(session, url):
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=10)) as r:
            return url, r.status
    except Exception as e:
        return url, type(e).__name__

async def main():
    async with aiohttp.ClientSession() as s:
        for url, status in await asyncio.gather(*(check(s, u) for u in SITES)):
            print(status, url)

asyncio.run(main())
