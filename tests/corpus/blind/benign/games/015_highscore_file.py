import json
from pathlib import Path

SCORES = Path("highscores.json")

def add_score(name, points):
    scores = json.loads(SCORES.read_text()) if SCORES.exists() else []
    scores.append({"name": name, "points": points})
    scores = sorted(scores, key=lambda s: -s["points"])[:10]
    SCORES.write_text(json.dumps(scores, indent=2))
    return scores

for rank, s in enumerate(add_score(input("name: "), int(input("points: "))), 1):
    print(rank, s["name"], s["points"])
