import sys

body = input("f(x) = ")
f = eval("lambda x: " + body)
for x in range(int(sys.argv[1]) if len(sys.argv) > 1 else 10):
    print(x, f(x))
