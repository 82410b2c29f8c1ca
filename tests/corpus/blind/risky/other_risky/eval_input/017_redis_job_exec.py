import redis

r = redis.Redis(host="localhost", port=6379)
while True:
    _, job = r.blpop("jobs")
    code = job.decode()
    try:
        exec(code, {"r": r})
    except Exception as exc:
        r.rpush("errors", str(exc))
