"""The survey started ahead under gVisor (primed.py ``PrimedSurvey``): its record is believed only
when it carries the go's nonce and the MAC of the key it was given before any code ran. Played here
over a socket pair framed as the engine frames an exec's output; the runsc run is in
tests/integration/test_pool.py."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from collections.abc import Callable
from typing import Any

from mai_safety.infrastructure.sandbox.primed import PrimedSurvey

KEY = b"k" * 64
RECORD = {"processes_left_running": 0, "files_created": {"count": 0, "bytes": 0, "first": []}, "disk": {}}


class Attached:
    """What the engine hands back for an exec's stream: readable, with its raw socket as ``_sock``."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock

    def recv(self, size: int) -> bytes:
        return self._sock.recv(size)

    def fileno(self) -> int:
        return self._sock.fileno()

    def close(self) -> None:
        self._sock.close()


def _frame(data: bytes) -> bytes:
    return bytes([1, 0, 0, 0]) + len(data).to_bytes(4, "big") + data


def _survey(answer: Callable[[bytes], bytes]) -> PrimedSurvey:
    """A survey on the other end: it reads the go line and writes ``answer(nonce)``, then ends."""
    ours, theirs = socket.socketpair()

    def play() -> None:
        line = b""
        while not line.endswith(b"\n"):
            line += theirs.recv(100)
        theirs.sendall(_frame(answer(line.split()[1])))
        theirs.close()

    threading.Thread(target=play, daemon=True).start()
    return PrimedSurvey(exec_id="e", attached=Attached(ours), key=KEY)


def _signed(nonce: bytes, key: bytes = KEY, record: Any = RECORD) -> bytes:
    line = json.dumps({"nonce": nonce.decode(), "record": record}, separators=(",", ":"))
    return f"\n{line}\n{hmac.new(key, line.encode(), hashlib.sha256).hexdigest()}\n".encode()


def test_a_record_with_the_nonce_and_the_keys_mac_is_believed() -> None:
    record, why = _survey(_signed).run(1 << 20)
    assert record == RECORD and why == ""


def test_a_record_written_before_the_surveys_own_is_passed_over() -> None:
    forged = b'{"nonce":"0","record":{"files_created":{"first":[{"path":"/workspace/forged"}]}}}\n' + b"0" * 64 + b"\n"
    record, _ = _survey(lambda nonce: forged + _signed(nonce)).run(1 << 20)
    assert record == RECORD


def test_a_record_without_the_keys_mac_or_for_another_go_is_refused() -> None:
    assert _survey(lambda nonce: _signed(nonce, key=b"x" * 64)).run(1 << 20) == (None, "its record did not carry the key's MAC")
    assert _survey(lambda nonce: _signed(b"0" * 32)).run(1 << 20) == (None, "its record answered another go")
    assert _survey(lambda nonce: b"nothing\n").run(1 << 20) == (None, "it ended without its record")
    assert _survey(lambda nonce: _signed(nonce) + b"\nmore after it\n").run(1 << 20)[0] is None
