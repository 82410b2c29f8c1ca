# expect: BLOCKED category: known_threat
import os
while True: os.fork()
