import asyncio
import psutil

async def snapshot():
    procs = []
    for p in psutil.process_iter(["pid", "username", "cpu_percent", "memory_info", "cmdline"]):
        procs.append(p.info)
    procs.sort(key=lambda i: i["cpu_percent"] or 0, reverse=True)
    return procs[:20]

async def main():
    while True:
        for info in await snapshot():
            print(info["pid"], info["username"], info["cpu_percent"], info["cmdline"])
        await asyncio.sleep(2)

asyncio.run(main())
