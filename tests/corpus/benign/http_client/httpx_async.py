# expect: BENIGN category: http_client
import asyncio

import httpx

URLS = ["https://example.com", "https://example.org", "https://example.net"]

async def fetch(client, url):
    response = await client.get(url, timeout=10)
    return url, response.status_code, len(response.content)

async def main():
    async with httpx.AsyncClient() as client:
        for url, status, size in await asyncio.gather(*(fetch(client, u) for u in URLS)):
            print(url, status, size)

asyncio.run(main())
