import psutil

zombies = [p for p in psutil.process_iter(["pid", "name", "status", "ppid"]) if p.info["status"] == psutil.STATUS_ZOMBIE]
if not zombies:
    print("no zombies")
for z in zombies:
    print(f"zombie {z.info['pid']} ({z.info['name']}) parent {z.info['ppid']}")
