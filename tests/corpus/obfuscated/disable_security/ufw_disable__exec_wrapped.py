# expect: BLOCKED category: disable_security variant-of: risky/disable_security/ufw_disable.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVggpLcorVijJSFVIyyxKLU/MyVHIT0vT48rMLcgvKlEoLk0qKMpPTi0u5uJCsPWKSvM0opVK08qVdBSUUjKLE5NyUpVidRSSM1KTs23dEnOKUzUB7FMgIw==')))
