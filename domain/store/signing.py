"""The server's signing keys (docs/SECURITY.md §9): HMAC-SHA-256 over the store-wide chain's links.

A key is kept outside the database, so someone who can write the database but does not hold the key can
recompute every hash (the schemes are documented) but cannot sign what they recomputed:

- `FUPAN_SIGNING_KEY`: the key that signs new links (a secret of at least 32 characters, e.g.
  `python -c "import secrets; print(secrets.token_hex(32))"`);
- `FUPAN_SIGNING_KEY_FILE`: a file of keys, one per line (blank lines and `#` comments ignored). Without
  `FUPAN_SIGNING_KEY` its first key signs; every key in it verifies.

Rotation: make the new key the signing one (`FUPAN_SIGNING_KEY`, or the file's first line) and keep the old
ones as further lines of the file: links name the key that signed them (`key_id`), so old links still verify.
A key id is the first 16 hex digits of SHA-256("fupan-key-id:" + key): it names the key without revealing it.

Without any key the service still runs (the demo needs none): links are written unsigned, and `fupan verify`
says that it can then prove nothing against someone who can write the database.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from domain.kernel.errors import BadRequest

KEY_ENV, KEY_FILE_ENV = "FUPAN_SIGNING_KEY", "FUPAN_SIGNING_KEY_FILE"
MIN_KEY_LENGTH = 32


def key_id(secret: str) -> str:
    return hashlib.sha256(f"fupan-key-id:{secret}".encode()).hexdigest()[:16]


def _bad_key(message: str, message_zh: str, details: dict | None = None) -> BadRequest:
    return BadRequest("bad_signing_key", message, message_zh, details or {})


@dataclass(frozen=True)
class KeyRing:
    """The keys this process holds: `signing` (its id) signs new links; every key in `keys` verifies."""

    keys: Mapping[str, bytes] = field(default_factory=dict)
    signing: str | None = None

    @classmethod
    def from_env(cls, get: Mapping[str, str] | None = None) -> KeyRing:
        """The keys named by FUPAN_SIGNING_KEY and FUPAN_SIGNING_KEY_FILE in `get` (an environment)."""
        get = get or {}
        secrets: list[str] = []
        path = get.get(KEY_FILE_ENV) or ""
        if path:
            try:
                text = Path(path).read_text(encoding="utf-8")
            except OSError as error:
                raise _bad_key(f"{KEY_FILE_ENV} names a file that cannot be read: {error}",
                               f"{KEY_FILE_ENV} 指向的文件无法读取：{error}", {"path": path}) from None
            secrets = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        first = get.get(KEY_ENV) or ""
        if first:
            secrets.insert(0, first.strip())
        for secret in secrets:
            if len(secret) < MIN_KEY_LENGTH:
                raise _bad_key(f"A signing key has at least {MIN_KEY_LENGTH} characters.",
                               f"签名密钥至少 {MIN_KEY_LENGTH} 个字符。", {"key_id": key_id(secret)})
        keys = {key_id(secret): secret.encode() for secret in secrets}
        return cls(keys, key_id(secrets[0]) if secrets else None)

    def sign(self, digest: str) -> tuple[str | None, str | None]:
        """(key id, signature) of a link's digest; (None, None) without a key."""
        if self.signing is None:
            return None, None
        return self.signing, _mac(self.keys[self.signing], digest)

    def check(self, kid: str, digest: str, signature: str) -> bool | None:
        """Whether `signature` is key `kid`'s over `digest`; None when this ring does not hold that key."""
        key = self.keys.get(kid)
        if key is None:
            return None
        return hmac.compare_digest(_mac(key, digest), signature)


def _mac(key: bytes, digest: str) -> str:
    return hmac.new(key, f"fupan.chain/1:{digest}".encode(), hashlib.sha256).hexdigest()
