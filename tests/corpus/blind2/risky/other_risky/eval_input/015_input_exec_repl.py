import traceback

ns = {}
print("mini shell, blank line to run")
buf = []
while True:
    line = input("... " if buf else ">>> ")
    if line:
        buf.append(line)
        continue
    try:
        exec("\n".join(buf), ns)
    except Exception:
        traceback.print_exc()
    buf = []
