import json
import requests

URL = "https://jsonplaceholder.typicode.com/todos"
resp = requests.get(URL, timeout=15)
resp.raise_for_status()
todos = resp.json()
with open("todos.json", "w") as f:
    json.dump(todos, f, indent=2)
done = sum(t["completed"] for t in todos)
print(f"saved {len(todos)} todos ({done} completed)")
