class Rule:
    def __init__(self, text):
        self.text = text

    def apply(self, ctx):
        return eval(self.text, {"__builtins__": {}}, ctx)


rules = [Rule(line.strip()) for line in open("rules.txt") if line.strip()]
user_expr = input("extra rule: ")
rules.append(Rule(user_expr))
for r in rules:
    print(r.text, "=>", r.apply({"age": 30, "country": "SE"}))
