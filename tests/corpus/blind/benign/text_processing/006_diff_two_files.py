import difflib
import sys

a = open(sys.argv[1]).readlines()
b = open(sys.argv[2]).readlines()
for line in difflib.unified_diff(a, b, fromfile=sys.argv[1], tofile=sys.argv[2]):
    sys.stdout.write(line)
ratio = difflib.SequenceMatcher(None, "".join(a), "".join(b)).ratio()
print(f"\nsimilarity: {ratio:.1%}")
