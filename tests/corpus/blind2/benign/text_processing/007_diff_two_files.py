import difflib
import sys

a, b = sys.argv[1], sys.argv[2]
with open(a) as fa, open(b) as fb:
    diff = difflib.unified_diff(fa.readlines(), fb.readlines(), fromfile=a, tofile=b)
sys.stdout.writelines(diff)
