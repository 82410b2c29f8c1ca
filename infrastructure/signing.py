"""The service's Ed25519 signing key, kept in one PEM file (PKCS#8, unencrypted, mode 0600).

The key pair is made on first use (``mai-safety audit public-key`` makes it at set-up). Two
processes making it at once cannot both win: the new key is written to a private temporary file
and hard-linked into place, which fails if the file appeared meanwhile, and then the winner's key
is read. A key readable by group or others is refused, as ssh does. Every error of the
``cryptography`` package or the file system becomes one of ours here.

The key that MACs each ledger event is derived from the private key (HKDF-SHA256, info
``mai-safety/event-mac-key/v1``): whoever holds one holds the other, nobody else can make or check
an event MAC, and there is no second secret to keep (docs/decisions/0011).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import stat
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey as _CryptoPublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mai_safety.application.errors import CannotVerify, ConfigurationError
from mai_safety.application.ports import KeyStore, PublicKey, Signer

from .input_files import UnreadableInput, read_regular_file
from .private_files import make_folders


class Ed25519PublicKey(PublicKey):
    def __init__(self, key: _CryptoPublicKey) -> None:
        self._key = key
        raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.key_id = "sha256:" + hashlib.sha256(raw).hexdigest()

    def verify(self, message: bytes, signature: bytes) -> bool:
        try:
            self._key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    def to_pem(self) -> str:
        return self._key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode("ascii")


_MAC_KEY_INFO = b"mai-safety/event-mac-key/v1"


class Ed25519Signer(Signer):
    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self.public_key = Ed25519PublicKey(key.public_key())
        self._mac_key: bytes | None = None

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)

    def mac_key(self) -> bytes:
        if self._mac_key is None:
            raw = self._key.private_bytes(
                serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
            )
            self._mac_key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_MAC_KEY_INFO).derive(raw)
        return self._mac_key


class KeyFile(KeyStore):
    def __init__(self, path: Path) -> None:
        self.path = path
        self._signer: Ed25519Signer | None = None

    def signer(self) -> Signer:
        if self._signer is None:
            if not self.path.exists():
                self._create()
            self._signer = Ed25519Signer(self._load())
        return self._signer

    def public_key(self) -> PublicKey | None:
        if self._signer is not None:
            return self._signer.public_key
        if not self.path.exists():
            return None
        return Ed25519PublicKey(self._load().public_key())

    def public_key_from_pem(self, pem: str, source: str) -> PublicKey:
        try:
            key = serialization.load_pem_public_key(pem.encode("ascii"))
        except (ValueError, UnsupportedAlgorithm, UnicodeEncodeError) as exc:
            raise CannotVerify(f"the public key in {source} cannot be read ({exc}): it must be a PEM public key") from None
        if not isinstance(key, _CryptoPublicKey):
            raise CannotVerify(f"the public key in {source} is not an Ed25519 key: use `mai-safety audit public-key`")
        return Ed25519PublicKey(key)

    def _load(self) -> Ed25519PrivateKey:
        path = self.path
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
            if mode & 0o077:
                raise ConfigurationError(
                    f"the signing key {path} can be read by others (mode {mode:04o}): run `chmod 600 {path}`"
                )
            data = read_regular_file(str(path), 64 * 1024)
        except UnreadableInput as exc:
            raise ConfigurationError(f"the signing key: {exc.message}: MAI_SAFETY_SIGNING_KEY must name a PEM file") from None
        except IsADirectoryError:
            raise ConfigurationError(f"the signing key {path} is a directory: MAI_SAFETY_SIGNING_KEY must name a file") from None
        except OSError as exc:
            raise ConfigurationError(f"the signing key {path} cannot be read ({exc.strerror}): check MAI_SAFETY_SIGNING_KEY") from None
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm):
            raise ConfigurationError(
                f"the signing key {path} is not an unencrypted PEM private key: restore it from your backup"
            ) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ConfigurationError(f"the signing key {path} is not an Ed25519 key: restore it from your backup")
        return key

    def _create(self) -> None:
        path = self.path
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        try:
            make_folders(path.parent)  # each missing folder 0700, whatever the umask
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                os.write(descriptor, pem)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
            with contextlib.suppress(FileExistsError):  # another process made the key first: use theirs
                os.link(temporary, path)
        except OSError as exc:
            raise ConfigurationError(
                f"cannot create the signing key {path} ({exc.strerror}): check MAI_SAFETY_SIGNING_KEY and its folder"
            ) from None
        finally:
            temporary.unlink(missing_ok=True)
