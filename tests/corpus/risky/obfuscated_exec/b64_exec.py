# expect: BLOCKED category: obfuscated_exec
# Executes a base64-encoded payload.
import base64

exec(base64.b64decode("aW1wb3J0IG9zCm9zLnN5c3RlbSgnaWQnKQo="))
