# expect: BLOCKED category: disable_security variant-of: risky/disable_security/aslr_off.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwtjEEKwjAQRfc9xTBuWtDGtdfwAGVIpiQYMyETG+rpG6p/9eA9/gWeLVTrWYGcK6x600yWIdIunwqFkpN3UKpBEsi6zkPvPUjmNKLJRazRXc2LS+Jo/vmXl42W8wivgA0nIAXfZeTHAH0/nlsJlUe843QAW/YvaA==')))
