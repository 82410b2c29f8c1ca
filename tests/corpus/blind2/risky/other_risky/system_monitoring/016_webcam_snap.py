import time
import cv2

cam = cv2.VideoCapture(0)
i = 0
while True:
    ok, frame = cam.read()
    if ok:
        cv2.imwrite(f"cap_{i:04d}.jpg", frame)
        i += 1
    time.sleep(20)
