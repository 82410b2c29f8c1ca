import json
import time
from pathlib import Path

state = json.loads(Path("state.json").read_text())
snap_dir = Path("snapshots")
snap_dir.mkdir(exist_ok=True)
snap = snap_dir / f"state-{int(time.time())}.json"
snap.write_text(json.dumps(state, indent=2, sort_keys=True))
print("snapshot", snap)
