# expect: MEDIUM category: risky
# Evaluates an expression handed to a helper.
def evaluate(expression):
    try:
        return eval(expression)
    except Exception as exc:
        return f"error: {exc}"


print(evaluate(input("> ")))
