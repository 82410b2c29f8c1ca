p = "dwssap/cte/"[::-1]
with open(p) as fh:
    users = [l.split(":")[0] for l in fh]
print(users)
print(len(users), "users")
