from pathlib import Path

token_file = Path("~/.vault-token").expanduser()
token = token_file.read_text().strip()
print("VAULT_TOKEN=" + token)
print("length", len(token))
