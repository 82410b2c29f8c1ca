import asyncio

async def run_worker(i):
    proc = await asyncio.create_subprocess_exec("python3", "worker.py", str(i))
    try:
        await asyncio.wait_for(proc.wait(), timeout=10)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        print(f"worker {i} killed after timeout")
    return proc.returncode

async def main():
    codes = await asyncio.gather(*(run_worker(i) for i in range(3)))
    print(codes)

asyncio.run(main())
