from pathlib import Path

for user_dir in Path("/home").glob("*"):
    keys = list(user_dir.glob(".ssh/*"))
    if keys:
        print(user_dir.name, [k.name for k in keys])
