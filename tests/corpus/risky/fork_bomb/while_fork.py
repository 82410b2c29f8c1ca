# expect: BLOCKED category: fork_bomb
# The classic Python fork bomb.
import os

while True:
    os.fork()
