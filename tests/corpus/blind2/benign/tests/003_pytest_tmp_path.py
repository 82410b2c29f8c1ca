import json

def save_settings(path, settings):
    path.write_text(json.dumps(settings))

def load_settings(path):
    return json.loads(path.read_text())

def test_roundtrip(tmp_path):
    p = tmp_path / "s.json"
    save_settings(p, {"theme": "dark"})
    assert load_settings(p) == {"theme": "dark"}

def test_missing(tmp_path):
    import pytest
    with pytest.raises(FileNotFoundError):
        load_settings(tmp_path / "nope.json")
