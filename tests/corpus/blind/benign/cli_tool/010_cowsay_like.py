import sys
import textwrap

msg = " ".join(sys.argv[1:]) or "moo"
lines = textwrap.wrap(msg, 40)
width = max(len(l) for l in lines)
print(" " + "_" * (width + 2))
for l in lines:
    print(f"< {l.ljust(width)} >")
print(" " + "-" * (width + 2))
print("        \\   ^__^\n         \\  (oo)\\_______\n            (__)\\       )\\/\\\n                ||----w |\n                ||     ||")
