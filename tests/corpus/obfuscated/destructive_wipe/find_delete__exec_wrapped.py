# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/find_delete.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVkjLzEtR0FfQTUnNSS1J5crMLcgvKlHIL+biyi/WK64sLknN1VCCKapISS1T0C2pLEhVSINpUTCy0wcK6+eV5uQoaQIALOkaKg==')))
