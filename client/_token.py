"""The trust boundary for the caller's credential: where the token comes from, and the one function
that reads a token file (``read_token_file``), which refuses a file anyone but its owner could read
or change."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from ._errors import TokenError

TOKEN_ENV = "MAI_SAFETY_TOKEN"
TOKEN_FILE_ENV = "MAI_SAFETY_TOKEN_FILE"
#: Read only when it exists and nothing else names a token.
MAX_TOKEN_FILE_BYTES = 4096


def default_token_file(environ: Mapping[str, str]) -> Path:
    config = environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "mai-safety" / "token"


def resolve_token(token: str | None, token_file: str | os.PathLike[str] | None, environ: Mapping[str, str] | None = None) -> str:
    """The token from, in order: the ``token`` argument, the ``token_file`` argument,
    ``MAI_SAFETY_TOKEN``, ``MAI_SAFETY_TOKEN_FILE``, then ``$XDG_CONFIG_HOME/mai-safety/token`` if it exists."""
    environ = os.environ if environ is None else environ
    if token:
        return _checked(token, "the token argument")
    if token_file is not None:
        return read_token_file(token_file)
    if environ.get(TOKEN_ENV):
        return _checked(environ[TOKEN_ENV], TOKEN_ENV)
    if environ.get(TOKEN_FILE_ENV):
        return read_token_file(environ[TOKEN_FILE_ENV])
    default = default_token_file(environ)
    if default.exists():
        return read_token_file(default)
    raise TokenError(
        f"no token: pass token=..., set {TOKEN_ENV} or {TOKEN_FILE_ENV}, or keep it in {default} (mode 0600); "
        "the operator creates one with `mai-safety tokens create NAME --role submitter`"
    )


def read_token_file(path: str | os.PathLike[str]) -> str:
    """Read a token from a regular file owned by the caller and readable or writable by nobody else.

    A token readable by the group or the world is a credential already shared; one others can
    write lets them swap in a token of their own. Either is refused with what to do, and the file
    is checked on the descriptor that is then read (no gap between the check and the read)."""
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise TokenError(f"cannot open the token file {name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise TokenError(f"the token file {name} is not a regular file")
        if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
            raise TokenError(f"the token file {name} belongs to uid {info.st_uid}, not to you: a token must be your own file")
        if info.st_mode & 0o077:
            raise TokenError(
                f"the token file {name} is open to others (mode {stat.S_IMODE(info.st_mode):04o}): "
                f"a token must be readable only by its owner; run `chmod 600 {name}` (and replace the token if others may have read it)"
            )
        data = os.read(fd, MAX_TOKEN_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise TokenError(f"the token file {name} is over {MAX_TOKEN_FILE_BYTES} bytes: it holds something other than a token")
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        raise TokenError(f"the token file {name} is not ASCII: it holds something other than a token") from None
    return _checked(text, f"the token file {name}")


def _checked(token: str, source: str) -> str:
    token = token.strip()
    if not token or any(not 0x21 <= ord(char) <= 0x7E for char in token):
        raise TokenError(f"{source} is empty or holds spaces or control characters: it is not a token")
    return token
