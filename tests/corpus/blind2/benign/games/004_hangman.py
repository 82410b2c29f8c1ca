import random

WORDS = ["python", "sandbox", "keyboard", "galaxy", "puzzle"]
word = random.choice(WORDS)
guessed = set()
lives = 6
while lives > 0:
    shown = "".join(c if c in guessed else "_" for c in word)
    print(shown, f"lives={lives}")
    if "_" not in shown:
        print("You win!")
        break
    g = input("letter: ").strip().lower()[:1]
    if g in word:
        guessed.add(g)
    else:
        lives -= 1
else:
    print("You lose, the word was", word)
