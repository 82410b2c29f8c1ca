# expect: BLOCKED category: disable_security variant-of: risky/disable_security/setenforce.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwFwTsOgCAQBcCeU2yw0YZ4CTs7jkCecQtYwlt/t3dmkvyolxOUvO3arlfcpGNUJfVGClq7DRdjCMbEj446R8LRDhsFssblB28tGHE=')))
