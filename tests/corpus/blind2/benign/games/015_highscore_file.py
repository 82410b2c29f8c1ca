import json
from pathlib import Path

SCORES = Path("highscores.json")

def add_score(name, score):
    table = json.loads(SCORES.read_text()) if SCORES.exists() else []
    table.append({"name": name, "score": score})
    table = sorted(table, key=lambda e: -e["score"])[:10]
    SCORES.write_text(json.dumps(table, indent=1))
    return table

for i, e in enumerate(add_score(input("name: "), int(input("score: "))), 1):
    print(i, e["name"], e["score"])
