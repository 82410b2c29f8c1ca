import json
import redis

r = redis.Redis(host="localhost", port=6379, decode_responses=True)

def get_profile(uid):
    key = f"profile:{uid}"
    if (cached := r.get(key)) is not None:
        return json.loads(cached)
    profile = {"id": uid, "name": f"user{uid}"}
    r.setex(key, 300, json.dumps(profile))
    return profile

print(get_profile(42))
