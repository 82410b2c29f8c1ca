# expect: MEDIUM category: risky
# Raises and lowers "privileges" around creating a folder.
import os


def raise_privileges():
    print("privileges raised")


def lower_privileges():
    print("privileges lowered")


def make_user_dir(username):
    raise_privileges()
    os.makedirs(os.path.join("users", username), exist_ok=True)
    lower_privileges()


make_user_dir("alice")
