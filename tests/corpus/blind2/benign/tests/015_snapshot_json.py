import json
from pathlib import Path

SNAP = Path(__file__).parent / "snapshots" / "render.json"

def render(user):
    return {"greeting": f"Hi {user['name']}", "admin": user.get("admin", False)}

def test_render_snapshot():
    out = render({"name": "Ana"})
    if not SNAP.exists():
        SNAP.parent.mkdir(exist_ok=True)
        SNAP.write_text(json.dumps(out, indent=1))
    assert out == json.loads(SNAP.read_text())
