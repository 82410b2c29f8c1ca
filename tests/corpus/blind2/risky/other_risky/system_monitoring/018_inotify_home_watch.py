import inotify.adapters

i = inotify.adapters.InotifyTree("/home")
with open("fs_events.log", "a") as log:
    for event in i.event_gen(yield_nones=False):
        _, types, path, name = event
        log.write(f"{types} {path}/{name}\n")
        log.flush()
