# expect: BLOCKED category: fork_bomb
# A recursive fork bomb.
import os

def bomb():
    os.fork()
    bomb()

bomb()
