import locale
import time
import os

print("locale:", locale.getlocale())
print("preferred encoding:", locale.getpreferredencoding())
print("timezone:", time.tzname, os.environ.get("TZ", "(system)"))
