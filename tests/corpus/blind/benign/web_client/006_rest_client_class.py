import requests


class TodoClient:
    def __init__(self, base="https://jsonplaceholder.typicode.com"):
        self.base = base
        self.s = requests.Session()
        self.s.headers.update({"Accept": "application/json"})

    def todos(self, user_id):
        return self.s.get(f"{self.base}/todos", params={"userId": user_id}).json()

    def create(self, title):
        return self.s.post(f"{self.base}/todos", json={"title": title, "completed": False}).json()


c = TodoClient()
print(len(c.todos(1)), "todos")
print(c.create("write tests"))
