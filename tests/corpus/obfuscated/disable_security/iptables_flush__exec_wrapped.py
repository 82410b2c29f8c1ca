# expect: BLOCKED category: disable_security variant-of: risky/disable_security/iptables_flush.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxVjL0KwjAURvc8xUdcWtA+gJsUCy4lQwXXWG9JIH/kJkrf3goOerYDh7PD4CobYtCT8orFZnpp55CrI+jwQEwUGMUQbEi1YDbahk5Yn2IuiCzEEjPm6P2ntgGNtKnou9ueh0Hu8aO3f1W4jOo64dT3ZzXJ9iiwEbnjlQv55jtt30RqNhg=')))
