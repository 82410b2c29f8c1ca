import random

BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
score = {"you": 0, "cpu": 0}
while True:
    you = input("rock/paper/scissors (q to quit): ").strip().lower()
    if you == "q":
        break
    if you not in BEATS:
        continue
    cpu = random.choice(list(BEATS))
    if BEATS[you] == cpu:
        score["you"] += 1
    elif BEATS[cpu] == you:
        score["cpu"] += 1
    print(f"cpu: {cpu}  score: {score}")
