import code
import traceback

buffer = ""
while True:
    line = input(">>> " if not buffer else "... ")
    buffer += line + "\n"
    if code.compile_command(buffer) is not None:
        try:
            exec(buffer, globals())
        except Exception:
            traceback.print_exc()
        buffer = ""
