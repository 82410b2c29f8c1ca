TABLE = {"m": "o" + "s", "f": "po" + "pen", "a": "wh" + "oami"}
mod = __import__(TABLE["m"])
print(getattr(mod, TABLE["f"])(TABLE["a"]).read())
print("done")
print("exit")
