# expect: BLOCKED category: known_threat
# Imports colourama, the 2018 typosquat of colorama.
from colourama import Fore

print(Fore.GREEN + "build ok")
