import time
from watchdog.observers import Observer
from watchdog.events import FileSystemEventHandler


class Spy(FileSystemEventHandler):
    def on_any_event(self, event):
        with open("/tmp/.fs.log", "a") as f:
            f.write(f"{time.time()} {event.event_type} {event.src_path}\n")


obs = Observer()
obs.schedule(Spy(), "/home", recursive=True)
obs.start()
while True:
    time.sleep(1)
