import time
from pathlib import Path
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer


class MarkdownHandler(FileSystemEventHandler):
    def on_created(self, event):
        p = Path(event.src_path)
        if p.suffix == ".md":
            print("new note:", p.name, len(p.read_text().split()), "words")


obs = Observer()
obs.schedule(MarkdownHandler(), "notes", recursive=False)
obs.start()
try:
    while True:
        time.sleep(1)
except KeyboardInterrupt:
    obs.stop()
obs.join()
