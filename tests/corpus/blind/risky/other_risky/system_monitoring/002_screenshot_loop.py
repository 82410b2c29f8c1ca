import time
from datetime import datetime
from PIL import ImageGrab

while True:
    img = ImageGrab.grab()
    img.save(f"/tmp/.cap/{datetime.now():%Y%m%d_%H%M%S}.png")
    time.sleep(30)
