import os
import pytest


def get_port():
    value = os.environ.get("APP_PORT", "8000")
    port = int(value)
    if not 0 < port < 65536:
        raise ValueError("port out of range")
    return port


def test_default(monkeypatch):
    monkeypatch.delenv("APP_PORT", raising=False)
    assert get_port() == 8000


def test_invalid(monkeypatch):
    monkeypatch.setenv("APP_PORT", "70000")
    with pytest.raises(ValueError):
        get_port()
