import os

# allow overriding limits like "1024*1024"
limit = eval(os.environ.get("UPLOAD_LIMIT", "10*1024*1024"))
timeout = eval(os.environ.get("TIMEOUT_EXPR", "30"))
print(limit, timeout)
