import platform
import sys

print("System:   ", platform.system(), platform.release())
print("Machine:  ", platform.machine())
print("Processor:", platform.processor() or "n/a")
print("Python:   ", sys.version.split()[0], platform.python_implementation())
print("Node:     ", platform.node())
