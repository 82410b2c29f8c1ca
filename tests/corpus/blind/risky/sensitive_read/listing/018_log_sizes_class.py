import os


class LogAudit:
    def __init__(self, root="/var/log"):
        self.root = root

    def largest(self, n=10):
        sizes = []
        for entry in os.scandir(self.root):
            if entry.is_file(follow_symlinks=False):
                sizes.append((entry.stat().st_size, entry.path))
        return sorted(sizes, reverse=True)[:n]


for size, path in LogAudit().largest():
    print(f"{size:>12,} {path}")
