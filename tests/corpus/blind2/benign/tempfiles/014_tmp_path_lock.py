import fcntl
import os
import tempfile

lock_path = os.path.join(tempfile.gettempdir(), "nightly-report.lock")
with open(lock_path, "w") as lock:
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit("another run is in progress")
    print("running report...")
