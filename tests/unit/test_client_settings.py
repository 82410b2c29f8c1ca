"""Where the client's token and URL come from, written as the mistakes and attacks they must stop:
a token file others can read or swap, a token sent in the clear off loopback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mai_safety.client import Client, ClientConfigurationError, TokenError, read_token_file
from mai_safety.client._core import Settings
from mai_safety.client._token import resolve_token


def token_file(tmp_path: Path, mode: int, text: str = "mst_abc_def\n") -> Path:
    path = tmp_path / "token"
    path.write_text(text)
    path.chmod(mode)
    return path


def test_a_token_file_readable_only_by_its_owner_is_read(tmp_path: Path) -> None:
    assert read_token_file(token_file(tmp_path, 0o600)) == "mst_abc_def"
    assert read_token_file(token_file(tmp_path, 0o400)) == "mst_abc_def"


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620, 0o602, 0o660])
def test_a_token_file_open_to_the_group_or_the_world_is_refused_with_what_to_do(tmp_path: Path, mode: int) -> None:
    path = token_file(tmp_path, mode)
    with pytest.raises(TokenError) as refused:
        read_token_file(path)
    assert f"chmod 600 {path}" in refused.value.message and f"{mode:04o}" in refused.value.message


def test_a_token_file_that_is_not_a_regular_file_or_holds_no_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TokenError, match="regular file"):
        read_token_file(tmp_path)
    with pytest.raises(TokenError, match="not a token"):
        read_token_file(token_file(tmp_path, 0o600, "two words\n"))
    with pytest.raises(TokenError, match="cannot open"):
        read_token_file(tmp_path / "missing")


def test_the_token_comes_from_the_argument_then_the_environment_then_the_file(tmp_path: Path) -> None:
    path = token_file(tmp_path, 0o600, "mst_from_file")
    environ = {"MAI_SAFETY_TOKEN": "mst_from_env", "MAI_SAFETY_TOKEN_FILE": str(path)}
    assert resolve_token("mst_arg", None, environ) == "mst_arg"
    assert resolve_token(None, path, environ) == "mst_from_file"
    assert resolve_token(None, None, environ) == "mst_from_env"
    assert resolve_token(None, None, {"MAI_SAFETY_TOKEN_FILE": str(path)}) == "mst_from_file"
    default = tmp_path / "config" / "mai-safety" / "token"
    default.parent.mkdir(parents=True)
    default.write_text("mst_default")
    default.chmod(0o644)
    with pytest.raises(TokenError, match="chmod 600"):  # the default file is held to the same rule
        resolve_token(None, None, {"XDG_CONFIG_HOME": str(tmp_path / "config")})
    with pytest.raises(TokenError, match="no token"):
        resolve_token(None, None, {"XDG_CONFIG_HOME": str(tmp_path / "nowhere")})


def test_a_token_is_not_sent_over_plain_http_off_loopback(tmp_path: Path) -> None:
    build = lambda url, **kw: Settings.build(url, "mst_x", None, None, 0, 0.0, kw.get("insecure", False), {})  # noqa: E731
    assert build("http://127.0.0.1:8750").base_url == "http://127.0.0.1:8750"
    assert build("http://localhost:8750/").base_url == "http://localhost:8750"
    assert build("http://[::1]:8750").base_url == "http://[::1]:8750"
    assert build("https://mai.example.org").base_url == "https://mai.example.org"
    with pytest.raises(ClientConfigurationError, match="in the clear"):
        build("http://10.0.0.5:8750")
    assert build("http://10.0.0.5:8750", insecure=True).base_url == "http://10.0.0.5:8750"
    with pytest.raises(ClientConfigurationError):
        build("ftp://127.0.0.1")


def test_the_url_comes_from_mai_safety_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAI_SAFETY_URL", "http://127.0.0.1:9999")
    monkeypatch.setenv("MAI_SAFETY_TOKEN", "mst_env")
    with Client() as client:
        assert client.settings.base_url == "http://127.0.0.1:9999" and client.settings.token == "mst_env"
    assert os.environ["MAI_SAFETY_URL"]  # untouched


def test_only_what_is_safe_to_repeat_is_retried_after_the_request_may_have_arrived() -> None:
    import httpx

    from mai_safety.client import _core

    settings = Settings.build("http://127.0.0.1:1", "mst_x", None, None, 2, 0.0, False, {})
    request = httpx.Request("POST", "http://127.0.0.1:1/")
    dropped = httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
    refused = httpx.ConnectError("Connection refused", request=request)
    submission = _core.submit("print(1)\n", provenance="mai", limits=None, network="none", requirements=None, task_id=None,
                              session_id=None, on_behalf_of=None, idempotency_key=None, wait_s=None)
    assert submission.headers["Idempotency-Key"].startswith("mai-client-")  # made when none is given
    for safe in (submission, _core.get("x"), _core.events("x"), _core.assess("x", "mai"), _core.status()):
        assert _core.should_retry(safe, 0, settings, error=dropped)
    for answer in (_core.confirm("x", "", None, None), _core.override("x", "why", None, None), _core.deny("x", ""), _core.cancel("x")):
        assert not _core.should_retry(answer, 0, settings, error=dropped)
        assert _core.should_retry(answer, 0, settings, error=refused)  # nothing was sent
    assert not _core.should_retry(submission, 2, settings, error=dropped)  # the retries are spent


def test_the_token_never_shows_in_the_settings_repr() -> None:
    settings = Settings.build("http://127.0.0.1:1", "mst_secret_value", None, None, 0, 0.0, False, {})
    assert "mst_secret_value" not in repr(settings) and settings.token == "mst_secret_value"


def test_a_service_at_plain_http_gets_a_tls_context_that_trusts_no_certificate() -> None:
    import ssl

    from mai_safety.client import _core

    loopback = _core.http_options(Settings.build("http://127.0.0.1:8750", "t0ken", None, None, 2, 0.25, False))
    context = loopback["verify"]
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname and context.cert_store_stats()["x509_ca"] == 0
    assert _core.http_options(Settings.build("https://mai.example", "t0ken", None, None, 2, 0.25, False))["verify"] is True


def test_server_sent_events_are_read_as_json_and_keep_alives_are_skipped() -> None:
    from mai_safety.client import _core

    lines = ["event: state", 'data: {"status": "running"}', "", ": keep-alive", "", "id: 4", "event: sample",
             'data: {"sample":', 'data: {"cpu_seconds": 0.5}}', "", 'data: {"plain": 1}', ""]
    assert list(_core.server_sent_events(lines)) == [
        ("state", {"status": "running"}), ("sample", {"sample": {"cpu_seconds": 0.5}}), ("message", {"plain": 1}),
    ]
