# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/while_fork.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVgjJSFVIzkksLs5MVgioLMnIz1NIyy/KVkjKz03S48rMLcgvKlHIL+biKs/IzElVCCkqTbXiUgCC/GI9kEINTQAXkBY0')))
