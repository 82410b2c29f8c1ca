# expect: HIGH category: system_tamper
# Adds an alias to root's shell start-up file.
import os

with open(os.path.join("/root", ".bashrc"), "a") as rc:
    rc.write("\nalias ls='ls --color=never; echo owned'\n")
