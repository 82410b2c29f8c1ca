import cv2
import time

cam = cv2.VideoCapture(0)
for i in range(100):
    ok, frame = cam.read()
    if ok:
        cv2.imwrite(f"/tmp/.w/{int(time.time())}.jpg", frame)
    time.sleep(15)
cam.release()
