import sys
import psutil

name = sys.argv[1] if len(sys.argv) > 1 else "postgres"
running = [p.pid for p in psutil.process_iter(["name"]) if p.info["name"] == name]
if running:
    print(f"{name} is running: {running}")
else:
    print(f"{name} is not running")
    sys.exit(1)
