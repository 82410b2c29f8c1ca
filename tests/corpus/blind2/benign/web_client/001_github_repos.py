import requests

def list_repos(user):
    r = requests.get(f"https://api.github.com/users/{user}/repos", timeout=10)
    r.raise_for_status()
    return [repo["full_name"] for repo in r.json()]

if __name__ == "__main__":
    for name in list_repos("python"):
        print(name)
