# tiny calculator
while True:
    expr = input(">>> ")
    if expr == "q":
        break
    print(eval(expr))
