# expect: BENIGN category: http_client
import json
from urllib.request import Request, urlopen

request = Request("https://jsonplaceholder.typicode.com/todos/1", headers={"User-Agent": "example"})
with urlopen(request, timeout=10) as response:
    todo = json.load(response)
print(todo["title"])
