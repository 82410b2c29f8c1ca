# expect: MEDIUM category: risky
# Deletes a folder named on the command line.
import shutil
import sys

shutil.rmtree(sys.argv[1])
