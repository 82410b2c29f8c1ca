# expect: HIGH category: privileged
# Installs a nightly cron job.
from pathlib import Path

Path("/etc/cron.d/nightly-backup").write_text("0 2 * * * root /usr/local/bin/backup.sh\n")
