import random

secret = random.randint(1, 100)
tries = 0
while True:
    guess = int(input("Guess a number 1-100: "))
    tries += 1
    if guess < secret:
        print("Higher!")
    elif guess > secret:
        print("Lower!")
    else:
        print(f"Correct in {tries} tries!")
        break
