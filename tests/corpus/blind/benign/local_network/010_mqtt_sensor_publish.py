import json
import random
import time
import paho.mqtt.client as mqtt

client = mqtt.Client()
client.connect("localhost", 1883)
for _ in range(10):
    reading = {"temp": round(20 + random.random() * 5, 2), "ts": time.time()}
    client.publish("home/livingroom/temp", json.dumps(reading))
    time.sleep(2)
client.disconnect()
