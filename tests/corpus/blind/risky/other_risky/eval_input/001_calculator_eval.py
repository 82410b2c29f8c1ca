while True:
    expr = input("calc> ")
    if expr in ("q", "quit"):
        break
    try:
        print(eval(expr))
    except Exception as e:
        print("error:", e)
