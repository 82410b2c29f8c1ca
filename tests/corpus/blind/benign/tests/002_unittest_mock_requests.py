import unittest
from unittest import mock

import requests


def get_user(uid):
    r = requests.get(f"https://api.example.com/users/{uid}")
    r.raise_for_status()
    return r.json()["name"]


class GetUserTest(unittest.TestCase):
    @mock.patch("requests.get")
    def test_returns_name(self, fake_get):
        fake_get.return_value.json.return_value = {"name": "Ada"}
        self.assertEqual(get_user(1), "Ada")
        fake_get.assert_called_once_with("https://api.example.com/users/1")


if __name__ == "__main__":
    unittest.main()
