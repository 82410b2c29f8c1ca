import json


def save_config(path, cfg):
    path.write_text(json.dumps(cfg))


def test_save_config(tmp_path):
    target = tmp_path / "cfg.json"
    save_config(target, {"a": 1})
    assert json.loads(target.read_text()) == {"a": 1}
