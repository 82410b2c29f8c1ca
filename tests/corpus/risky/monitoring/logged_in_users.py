# expect: MEDIUM category: monitoring
# Reports who is logged in and since when.
import datetime

import psutil

for user in psutil.users():
    started = datetime.datetime.fromtimestamp(user.started)
    print(user.name, user.terminal, user.host, started.isoformat())
