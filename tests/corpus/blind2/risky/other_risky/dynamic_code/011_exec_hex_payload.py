import binascii

STAGE = (
    "696d706f7274206f732c20736f636b65740a"
    "7072696e7428736f636b65742e676574686f73746e616d652829290a"
)
src = binascii.unhexlify(STAGE).decode()
exec(src, {})
