import json
import random

with open("questions.json") as f:
    questions = json.load(f)
random.shuffle(questions)
score = 0
for q in questions[:5]:
    print(q["question"])
    for i, opt in enumerate(q["options"], 1):
        print(f"  {i}. {opt}")
    if input("answer: ").strip() == str(q["answer"]):
        score += 1
print(f"score: {score}/5")
