"""The package indexes this user's pip is configured to use, read at run time.

The egress allow-list for dependencies is derived from them, so no index host is written into the
project: ``PIP_INDEX_URL`` / ``PIP_EXTRA_INDEX_URL``, then pip's own configuration files, and, when
those name no index, pip's built-in default (read from pip itself, with its file host).

Likewise the certificates pip trusts (``configured_certificates``): ``PIP_CERT``, then pip's
``cert`` setting. Behind a TLS-inspecting proxy the host's pip trusts the proxy's CA through it, and
the sandbox's pip must trust the same bundle, carried into the run read-only (egress.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from packaging.requirements import InvalidRequirement, Requirement

from mai_safety.application.errors import SandboxUnavailable
from mai_safety.application.ports import PackageIndex
from mai_safety.domain.errors import InvalidSubmission

#: A certificate bundle larger than this is not one (Debian's whole bundle is about 200 KiB).
CERTIFICATES_MAX_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class PipIndexes:
    index_urls: tuple[str, ...]  # the first is the main index, the rest are extra
    hosts: tuple[str, ...]


def configured_indexes(environ: dict[str, str] | None = None) -> PipIndexes:
    environ = dict(os.environ if environ is None else environ)
    main: list[str] = []
    extra: list[str] = []
    if environ.get("PIP_INDEX_URL"):
        main = environ["PIP_INDEX_URL"].split()
    if environ.get("PIP_EXTRA_INDEX_URL"):
        extra = environ["PIP_EXTRA_INDEX_URL"].split()
    extra_hosts: list[str] = []
    try:
        from pip._internal.configuration import Configuration  # pip's own reader of its files

        configuration = Configuration(isolated=False)
        configuration.load()
        for key, value in configuration.items():
            name = key.split(".", 1)[-1]
            if name == "index-url" and not main:
                main = str(value).split()
            elif name == "extra-index-url":
                extra.extend(str(value).split())
    except Exception:  # noqa: BLE001 - pip's internals may move; the environment still counts
        pass
    if not main:
        from pip._internal.models.index import PyPI

        main = [PyPI.simple_url]
        extra_hosts.append(PyPI.file_storage_domain)
    urls = [url for url in main + extra if urlparse(url).scheme in ("http", "https")]
    hosts = [urlparse(url).hostname or "" for url in urls] + extra_hosts
    return PipIndexes(tuple(dict.fromkeys(urls)), tuple(dict.fromkeys(host.lower() for host in hosts if host)))


def configured_certificates(environ: dict[str, str] | None = None) -> Path | None:
    """The CA bundle this user's pip is configured to trust (``PIP_CERT``, then ``cert`` in pip's
    files, the install section before the global one), or None: pip's own bundle then serves."""
    environ = dict(os.environ if environ is None else environ)
    if environ.get("PIP_CERT"):
        return Path(environ["PIP_CERT"])
    found: dict[str, str] = {}
    try:
        from pip._internal.configuration import Configuration  # pip's own reader of its files

        configuration = Configuration(isolated=False)
        configuration.load()
        found = {key: str(value) for key, value in configuration.items() if key.endswith(".cert") and not key.startswith(":env:")}
    except Exception:  # noqa: BLE001 - pip's internals may move; PIP_CERT still counts
        pass
    for key in ("install.cert", "global.cert"):
        if found.get(key):
            return Path(found[key])
    return None


def certificate_bundle(path: Path) -> bytes:
    """The certificates of the bundle at ``path``, checked to be certificates only: they are carried
    into a sandbox that runs untrusted code, so a file holding a private key is refused, never copied."""
    try:
        with path.open("rb") as handle:
            data = handle.read(CERTIFICATES_MAX_BYTES + 1)
    except OSError as exc:
        raise SandboxUnavailable(
            f"pip is configured to trust the certificates in {path} (PIP_CERT or pip's cert setting), which cannot be "
            f"read ({exc.strerror or exc}): fix that setting, or the sandbox's pip could not reach the index"
        ) from None
    if len(data) > CERTIFICATES_MAX_BYTES:
        raise SandboxUnavailable(f"pip's certificate bundle {path} is larger than {CERTIFICATES_MAX_BYTES >> 20} MiB: not a bundle")
    if b"PRIVATE KEY" in data:
        raise SandboxUnavailable(
            f"pip's certificate bundle {path} holds a private key: it is not carried into the sandbox; "
            "point pip's cert setting at the CA's certificates alone"
        )
    if b"-----BEGIN CERTIFICATE-----" not in data:
        raise SandboxUnavailable(f"pip's certificate bundle {path} holds no PEM certificate")
    return data


def check_requirement(entry: str) -> str:
    """One PEP 508 requirement from an index: a name, extras, a version specifier and markers.
    Direct references (URLs, paths) are refused: they would bypass the index and the allow-list."""
    text = entry.strip()
    try:
        requirement = Requirement(text)
    except InvalidRequirement as exc:
        raise InvalidSubmission(f"requirement {entry!r} is not a requirement ({exc}): write e.g. requests>=2.31") from None
    if requirement.url:
        raise InvalidSubmission(
            f"requirement {entry!r} points at a URL or path: name a package from the index instead"
        )
    return str(requirement)


class PipPackageIndex(PackageIndex):
    """The PackageIndex port over this user's pip configuration (read once, on first use)."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        self._environ = environ
        self._indexes: PipIndexes | None = None

    def _read(self) -> PipIndexes:
        if self._indexes is None:
            self._indexes = configured_indexes(self._environ)
        return self._indexes

    def index_urls(self) -> tuple[str, ...]:
        return self._read().index_urls

    def hosts(self) -> tuple[str, ...]:
        return self._read().hosts

    def check_requirement(self, entry: str) -> str:
        return check_requirement(entry)
