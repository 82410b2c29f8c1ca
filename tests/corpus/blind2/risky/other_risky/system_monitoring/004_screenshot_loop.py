import time
from datetime import datetime
from PIL import ImageGrab

while True:
    img = ImageGrab.grab()
    img.save(f"shots/{datetime.now():%Y%m%d_%H%M%S}.png")
    time.sleep(10)
