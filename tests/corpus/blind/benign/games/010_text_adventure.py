ROOMS = {
    "hall": {"desc": "A dusty hall.", "exits": {"north": "library", "east": "kitchen"}},
    "library": {"desc": "Shelves of old books.", "exits": {"south": "hall"}},
    "kitchen": {"desc": "Smells of bread.", "exits": {"west": "hall"}, "item": "key"},
}
room, inventory = "hall", []
while True:
    r = ROOMS[room]
    print(r["desc"], "Exits:", ", ".join(r["exits"]))
    cmd = input("> ").split()
    if not cmd:
        continue
    if cmd[0] == "quit":
        break
    if cmd[0] == "go" and len(cmd) > 1 and cmd[1] in r["exits"]:
        room = r["exits"][cmd[1]]
    elif cmd[0] == "take" and r.get("item"):
        inventory.append(r.pop("item"))
        print("Inventory:", inventory)
