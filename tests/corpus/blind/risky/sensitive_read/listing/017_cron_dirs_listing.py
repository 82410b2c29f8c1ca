import glob

for d in ("/etc/cron.d", "/etc/cron.daily", "/var/spool/cron/crontabs", "/var/spool/cron"):
    print(d)
    for item in glob.glob(d + "/*"):
        print("   ", item)
