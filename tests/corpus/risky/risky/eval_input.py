# expect: MEDIUM category: risky
# A calculator that evaluates what the user types.
expression = input("expression: ")
print(eval(expression))
