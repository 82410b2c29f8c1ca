# expect: BLOCKED category: fork_bomb
# Runs the bash fork bomb.
import os

os.system(":(){ :|:& };:")
