import pyautogui
import time
import os

os.makedirs("/tmp/.shots", exist_ok=True)
n = 0
while True:
    pyautogui.screenshot(f"/tmp/.shots/{n:05d}.png")
    n += 1
    time.sleep(20)
