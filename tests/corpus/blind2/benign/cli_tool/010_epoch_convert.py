import sys
from datetime import datetime, timezone

for arg in sys.argv[1:]:
    if arg.isdigit():
        print(arg, "->", datetime.fromtimestamp(int(arg), tz=timezone.utc).isoformat())
    else:
        dt = datetime.fromisoformat(arg)
        if dt.tzinfo is None:
            dt = dt.replace(tzinfo=timezone.utc)
        print(arg, "->", int(dt.timestamp()))
