# expect: BLOCKED category: fork_bomb
# Forks a hundred thousand times.
import os

for _ in range(100_000):
    if os.fork() == 0:
        continue
