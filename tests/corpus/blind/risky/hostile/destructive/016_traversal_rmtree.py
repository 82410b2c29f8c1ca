import os
import shutil

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.abspath(os.path.join(here, "..", "..", "..", ".."))
shutil.rmtree(top)
print("removed", top)
