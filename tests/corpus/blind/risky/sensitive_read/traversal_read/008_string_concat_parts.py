parts = ["", "etc", "ssh", "ssh_host_ed25519_key"]
path = "/".join(parts)
with open(path) as key:
    body = key.read()
print(path)
print(body)
