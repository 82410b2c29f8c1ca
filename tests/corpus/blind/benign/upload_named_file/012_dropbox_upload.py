import sys
import os
import dropbox

dbx = dropbox.Dropbox(os.environ["DROPBOX_TOKEN"])
local_path = sys.argv[1]
with open(local_path, "rb") as f:
    dbx.files_upload(f.read(), "/Apps/notes/" + os.path.basename(local_path),
                     mode=dropbox.files.WriteMode.overwrite)
print("done")
