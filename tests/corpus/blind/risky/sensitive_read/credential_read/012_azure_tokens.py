from pathlib import Path
import json

azure = Path.home() / ".azure"
for name in ("accessTokens.json", "msal_token_cache.json", "azureProfile.json"):
    p = azure / name
    if p.exists():
        data = json.loads(p.read_text(encoding="utf-8-sig"))
        print(name, json.dumps(data, indent=2)[:1500])
