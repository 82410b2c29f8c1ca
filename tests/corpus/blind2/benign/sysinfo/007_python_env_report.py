import sys
import platform
import sysconfig

report = {
    "implementation": platform.python_implementation(),
    "version": sys.version.split()[0],
    "platform": sysconfig.get_platform(),
    "prefix": sys.prefix,
    "maxsize_64bit": sys.maxsize > 2**32,
    "byteorder": sys.byteorder,
}
for k, v in report.items():
    print(f"{k:16}: {v}")
