"""Ed25519 signatures of a manifest (issue 24; docs/VERIFY.md "Signatures"), by the
``cryptography`` package: nothing hand-made.

Key files are PEM: the private key PKCS#8 unencrypted (``BEGIN PRIVATE KEY``), mode 0600; the
public key SubjectPublicKeyInfo (``BEGIN PUBLIC KEY``). A signature is over the manifest's
canonical JSON (``formats.canonical.canonical_json``, every key of it) and is written beside it
in the bundle as ``{"algorithm": "ed25519", "public_key": <32 bytes, hex>, "value": <64 bytes,
hex>}``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ledger.errors import InvalidInput
from ledger.formats.canonical import canonical_json

ALGORITHM = "ed25519"


class KeyFileError(InvalidInput):
    """A key file that cannot be used: the message names the file."""


def new_key_pair(private: Path, public: Path) -> str:
    """Write a new Ed25519 key pair: ``private`` (created with mode 0600, never over an existing
    file) and ``public``. Returns the public key as hex. Raises ``KeyFileError`` naming the file
    when either exists or cannot be written (nothing is left behind)."""
    for path in (private, public):
        if path.exists():
            raise KeyFileError(f"{path}: exists already; a key file is never overwritten")
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    try:
        fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(pem)
        os.chmod(private, 0o600)  # whatever the umask
    except OSError as exc:
        raise KeyFileError(f"{private}: cannot write: {exc.strerror or exc}") from None
    try:
        public.write_bytes(public_pem(key))
    except OSError as exc:
        private.unlink()
        raise KeyFileError(f"{public}: cannot write: {exc.strerror or exc}") from None
    return _hex(key.public_key())


def load_private(path: Path) -> Ed25519PrivateKey:
    """The private key in ``path``. Raises ``KeyFileError`` naming it when it is readable or
    writable by anyone but its owner (mode beyond 0600), missing, or not an Ed25519 PEM key."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
        data = path.read_bytes()
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read the private key: {exc.strerror or exc}") from None
    if mode & 0o077:
        raise KeyFileError(f"{path}: the private key is open to others (mode {mode:04o}); "
                        f"allow its owner only: chmod 600 {path}")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"{path}: not a private key in PEM: {exc}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: not an Ed25519 private key")
    return key


def load_public(path: Path) -> Ed25519PublicKey:
    """The public key in ``path`` (PEM). Raises ``KeyFileError`` naming it otherwise."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot read the public key: {exc.strerror or exc}") from None
    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"{path}: not a public key in PEM: {exc}") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path}: not an Ed25519 public key")
    return key


def public_pem(key: Ed25519PrivateKey) -> bytes:
    """The public key of ``key`` as PEM (SubjectPublicKeyInfo), as ``new_key_pair`` writes it:
    what a site publishes for ``ledger verify --key``."""
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)


def public_hex(key: Ed25519PrivateKey) -> str:
    """The public key of ``key``, 32 bytes as hex: what its signatures name (``public_key``)."""
    return _hex(key.public_key())


def sign(manifest: Mapping[str, Any], key: Ed25519PrivateKey) -> dict[str, str]:
    """The signature record of ``manifest`` by ``key``."""
    return signed(canonical_json(dict(manifest)), key)


def signed(manifest_json: bytes, key: Ed25519PrivateKey) -> dict[str, str]:
    """``sign``'s record from the manifest's canonical JSON (``formats.canonical``), made
    without the manifest as a dict (``bundle_json.joined`` of its parts)."""
    return {"algorithm": ALGORITHM, "public_key": _hex(key.public_key()),
            "value": key.sign(manifest_json).hex()}


def check(manifest: Mapping[str, Any], signature: Any, key: Ed25519PublicKey) -> str | None:
    """None when ``signature`` (the bundle's record) is ``key``'s signature of ``manifest``, else
    what is wrong, in words."""
    if not isinstance(signature, dict):
        return "the bundle is not signed"
    if signature.get("algorithm") != ALGORITHM:
        return f"signature.algorithm: {signature.get('algorithm')!r} is not {ALGORITHM!r}"
    try:
        value = bytes.fromhex(str(signature.get("value")))
    except ValueError:
        return "signature.value: not hexadecimal"
    try:
        key.verify(value, canonical_json(dict(manifest)))
    except InvalidSignature:
        signer = signature.get("public_key")
        return ("the signature is not this key's" + (
            f" (signed by the key {signer}, not {_hex(key)})" if signer != _hex(key) else
            ": the manifest was changed after it was signed"))
    return None


def _hex(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()
