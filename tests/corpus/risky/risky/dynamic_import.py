# expect: MEDIUM category: risky
# Imports a plugin named on the command line.
import importlib
import sys

plugin = importlib.import_module(sys.argv[1])
plugin.run()
