import keyring
import getpass

SERVICE = "my-cli-tool"

def get_token():
    tok = keyring.get_password(SERVICE, "api")
    if tok is None:
        tok = getpass.getpass("API token for my-cli-tool: ")
        keyring.set_password(SERVICE, "api", tok)
    return tok

print("token loaded, length", len(get_token()))
