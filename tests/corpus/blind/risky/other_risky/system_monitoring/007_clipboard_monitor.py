import time
import pyperclip

last = ""
with open("clip_history.txt", "a") as out:
    while True:
        cur = pyperclip.paste()
        if cur != last:
            out.write(f"{time.time()}\t{cur!r}\n")
            out.flush()
            last = cur
        time.sleep(0.5)
