import random

CHOICES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
score = {"you": 0, "cpu": 0}
for _ in range(3):
    you = input("rock/paper/scissors? ").strip().lower()
    if you not in CHOICES:
        print("invalid")
        continue
    cpu = random.choice(CHOICES)
    if BEATS[you] == cpu:
        score["you"] += 1
    elif BEATS[cpu] == you:
        score["cpu"] += 1
    print(f"cpu chose {cpu}; score {score}")
