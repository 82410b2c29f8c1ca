import base64

blob = "aW1wb3J0IG9zO3ByaW50KG9zLmdldGN3ZCgpKQ=="
exec(base64.b64decode(blob).decode())
print("bootstrap ok")
