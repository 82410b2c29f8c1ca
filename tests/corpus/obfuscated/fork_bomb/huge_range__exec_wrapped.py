# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/huge_range.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwlirEKgDAMBfd+xQMXXSSuQld/Q4pWDdJE0vb/rXjTcVyHRe3OCLiq7BZ3lEtrDtKEU8yj4/SoFWh27lDDChZYkDP2E9FKRMPs0OCjPWNb7n6A96A/f2wqhaXGF399IJk=')))
