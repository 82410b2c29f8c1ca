# expect: BLOCKED category: disable_security variant-of: risky/disable_security/clear_logs.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxdTzsOwjAM3XMKKyypBOnOzswAF4jSQCKldWS7QG9P2iBV4g2W/T6WfYA7zZN3EhgkBuCFJYyQ8cngpqFxMeQMMbEgLValsSAJICv1QFqtkCYwun856uvUu1mirY0+wk7Wxf+Um4ckrW727qygQmhpzQosYTJVrLm37qzPyMF0mxw+PhSB6+1ChLRHimNWyLa9YvTvcDh53X0B+XNLhA==')))
