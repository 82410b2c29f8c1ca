# expect: BLOCKED category: fork_bomb
# Forks forever through itertools.count.
import itertools
import os

for _ in itertools.count():
    os.fork()
