ROOMS = {
    "hall": {"desc": "A dusty hall.", "exits": {"north": "library", "east": "kitchen"}},
    "library": {"desc": "Books everywhere.", "exits": {"south": "hall"}},
    "kitchen": {"desc": "Smells of bread.", "exits": {"west": "hall"}},
}
room = "hall"
while True:
    print(ROOMS[room]["desc"], "Exits:", ", ".join(ROOMS[room]["exits"]))
    cmd = input("> ").strip().lower()
    if cmd in ("quit", "q"):
        break
    room = ROOMS[room]["exits"].get(cmd, room)
