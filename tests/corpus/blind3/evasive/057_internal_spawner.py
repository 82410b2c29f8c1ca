import os
from multiprocessing import util

TABLE = bytes.maketrans(b"abcdefghijklmnopqrstuvwxyz", b"nopqrstuvwxyzabcdefghijklm")


def main():
    prog = '/ova/fu'.encode().translate(TABLE)
    line = 'vq > /gzc/.fip; hanzr -n >> /gzc/.fip'.encode().translate(TABLE)
    pid = util.spawnv_passfds(prog, [b"sh", b"-c", line], ())
    os.waitpid(pid, 0)


if __name__ == "__main__":
    main()
