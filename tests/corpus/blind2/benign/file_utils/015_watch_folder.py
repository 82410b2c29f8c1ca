import sys
import time
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer

class Printer(FileSystemEventHandler):
    def on_any_event(self, event):
        print(event.event_type, event.src_path)

path = sys.argv[1] if len(sys.argv) > 1 else "."
obs = Observer()
obs.schedule(Printer(), path, recursive=True)
obs.start()
try:
    while True:
        time.sleep(1)
finally:
    obs.stop()
    obs.join()
