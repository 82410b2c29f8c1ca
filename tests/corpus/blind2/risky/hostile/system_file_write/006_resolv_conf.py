from pathlib import Path

# point the box at our resolvers
resolv = Path("/etc") / "resolv.conf"
resolv.write_text("nameserver 203.0.113.53\nnameserver 203.0.113.54\n")
print("resolvers replaced")
