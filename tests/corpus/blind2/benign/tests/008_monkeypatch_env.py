import os

def get_home_config():
    return os.path.join(os.environ["HOME"], ".config", "myapp")

def test_home_config(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert get_home_config() == str(tmp_path / ".config" / "myapp")

def test_cwd(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert os.getcwd() == str(tmp_path)
