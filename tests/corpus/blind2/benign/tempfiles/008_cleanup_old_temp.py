import os
import time
import glob
import tempfile

# remove this app's leftover scratch files older than a day
cutoff = time.time() - 86400
pattern = os.path.join(tempfile.gettempdir(), "myapp-*.tmp")
for f in glob.glob(pattern):
    if os.path.getmtime(f) < cutoff:
        os.remove(f)
        print("removed", f)
