import random

WORDS = ["python", "keyboard", "galaxy", "penguin", "library"]
word = random.choice(WORDS)
guessed, lives = set(), 6
while lives > 0:
    shown = " ".join(c if c in guessed else "_" for c in word)
    print(shown, f"(lives: {lives})")
    if "_" not in shown:
        print("You win!")
        break
    g = input("letter: ").lower()[:1]
    if g in word:
        guessed.add(g)
    else:
        lives -= 1
else:
    print("Out of lives, the word was", word)
