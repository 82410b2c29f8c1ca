import asyncio

async def main():
    proc = await asyncio.create_subprocess_exec("sleep", "60")
    try:
        await asyncio.wait_for(proc.wait(), timeout=3)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        print("killed sleeping child", proc.pid)

asyncio.run(main())
