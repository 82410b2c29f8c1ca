import time
import pyperclip

last = ""
with open("clip_history.txt", "a") as out:
    while True:
        cur = pyperclip.paste()
        if cur != last:
            out.write(time.strftime("%H:%M:%S ") + cur + "\n")
            out.flush()
            last = cur
        time.sleep(1)
