import os
import sys
import dropbox

dbx = dropbox.Dropbox(os.environ["DROPBOX_TOKEN"])
local = sys.argv[1]
with open(local, "rb") as f:
    meta = dbx.files_upload(f.read(), "/uploads/" + os.path.basename(local),
                            mode=dropbox.files.WriteMode.overwrite)
print("uploaded", meta.path_display)
