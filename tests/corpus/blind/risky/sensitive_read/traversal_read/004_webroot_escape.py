from pathlib import Path

WEBROOT = Path("/var/www/html/static")
requested = "../../../../etc/shadow"
full = WEBROOT / requested
print(full.resolve())
print(full.read_text())
