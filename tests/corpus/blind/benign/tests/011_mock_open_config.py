from unittest.mock import mock_open, patch
import json


def read_threshold(path="config.json"):
    with open(path) as f:
        return json.load(f).get("threshold", 10)


def test_reads_threshold():
    with patch("builtins.open", mock_open(read_data='{"threshold": 42}')):
        assert read_threshold() == 42


def test_default_threshold():
    with patch("builtins.open", mock_open(read_data="{}")):
        assert read_threshold() == 10
