import importlib

name = input("module to load: ")
attr = input("function: ")
mod = importlib.import_module(name)
print(getattr(mod, attr)())
