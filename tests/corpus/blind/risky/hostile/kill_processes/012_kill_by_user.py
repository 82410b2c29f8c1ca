import psutil

victim = "postgres"
procs = [p for p in psutil.process_iter(["username"]) if p.info["username"] == victim]
for p in procs:
    p.send_signal(9)
gone, alive = psutil.wait_procs(procs, timeout=3)
print(f"{len(gone)} gone, {len(alive)} alive")
