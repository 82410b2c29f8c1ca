import os
import signal
from unittest import mock

def stop(pid):
    os.kill(pid, signal.SIGTERM)

def test_stop_sends_sigterm():
    with mock.patch("os.kill") as k:
        stop(12345)
        k.assert_called_once_with(12345, signal.SIGTERM)
