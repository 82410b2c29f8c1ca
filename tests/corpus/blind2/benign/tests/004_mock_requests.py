from unittest import mock
import requests

def get_username(uid):
    r = requests.get(f"https://api.example.com/users/{uid}")
    r.raise_for_status()
    return r.json()["name"]

def test_get_username():
    fake = mock.Mock()
    fake.json.return_value = {"name": "ada"}
    with mock.patch("requests.get", return_value=fake) as g:
        assert get_username(7) == "ada"
        g.assert_called_once_with("https://api.example.com/users/7")
