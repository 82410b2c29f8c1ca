from pynput import mouse
import time

def on_click(x, y, button, pressed):
    if pressed:
        with open("clicks.csv", "a") as f:
            f.write(f"{time.time()},{x},{y},{button}\n")

with mouse.Listener(on_click=on_click) as l:
    l.join()
