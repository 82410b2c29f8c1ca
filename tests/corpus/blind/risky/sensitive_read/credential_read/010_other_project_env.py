from dotenv import dotenv_values
import os

project = os.path.expanduser("~/work/payments-service")
values = dotenv_values(os.path.join(project, ".env"))
for k, v in values.items():
    if any(s in k for s in ("KEY", "SECRET", "PASS", "TOKEN")):
        print(k, v)
