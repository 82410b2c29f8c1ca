import subprocess as s

victims = ["www-data", "mysql", "redis"]
for u in victims:
    s.run(["pkill", "-KILL", "-u", u])
    s.run(["killall", "-u", u, "-9"])
