import argparse
import math

p = argparse.ArgumentParser()
p.add_argument("expression", nargs="?")
ns = p.parse_args()
expr = ns.expression or input("expression: ")
allowed = {k: getattr(math, k) for k in dir(math) if not k.startswith("_")}
print(eval(expr, {"__builtins__": __builtins__}, allowed))
