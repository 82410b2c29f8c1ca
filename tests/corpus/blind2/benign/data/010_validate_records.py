import json

REQUIRED = {"id": int, "email": str, "age": int}

def validate(rec):
    errs = []
    for k, t in REQUIRED.items():
        if k not in rec:
            errs.append(f"missing {k}")
        elif not isinstance(rec[k], t):
            errs.append(f"{k} should be {t.__name__}")
    return errs

with open("users.json") as fh:
    for i, rec in enumerate(json.load(fh)):
        if e := validate(rec):
            print(i, e)
