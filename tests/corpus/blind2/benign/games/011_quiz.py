import json
import random

QUESTIONS = [
    {"q": "Capital of France?", "a": "paris"},
    {"q": "2 ** 10?", "a": "1024"},
    {"q": "Python's creator (surname)?", "a": "van rossum"},
]
random.shuffle(QUESTIONS)
score = 0
for item in QUESTIONS:
    if input(item["q"] + " ").strip().lower() == item["a"]:
        score += 1
print(f"score {score}/{len(QUESTIONS)}")
json.dump({"last_score": score}, open("quiz_score.json", "w"))
