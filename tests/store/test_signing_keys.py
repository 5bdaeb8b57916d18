"""The signing keys as docs/SECURITY.md §9 describes them (domain/store/signing.py): `FUPAN_SIGNING_KEY` (at least 32
characters) signs; `FUPAN_SIGNING_KEY_FILE` holds keys one per line (blank lines and `#` comments ignored), whose
first signs when `FUPAN_SIGNING_KEY` is not set and each of which verifies; a key is named by the first 16 hex
digits of SHA-256("fupan-key-id:" + key); a refused key is 400 `bad_signing_key`, said in Chinese and English.
The MAC is computed here from the documented scheme (HMAC-SHA-256 over "fupan.chain/1:" + the link's digest)."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from domain.kernel.errors import BadRequest
from domain.store.signing import KeyRing

OLD, NEW = "o" * 32, "n" * 40
DIGEST = hashlib.sha256(b"a link").hexdigest()


def named(key: str) -> str:
    return hashlib.sha256(f"fupan-key-id:{key}".encode()).hexdigest()[:16]


def mac(key: str, digest: str) -> str:
    return hmac.new(key.encode(), f"fupan.chain/1:{digest}".encode(), hashlib.sha256).hexdigest()


def test_without_a_key_links_are_unsigned_and_no_signature_can_be_checked():
    for ring in (KeyRing.from_env({}), KeyRing.from_env(None), KeyRing.from_env({"FUPAN_SIGNING_KEY": ""})):
        assert (ring.signing, dict(ring.keys)) == (None, {})
        assert ring.sign(DIGEST) == (None, None)
        assert ring.check(named(OLD), DIGEST, mac(OLD, DIGEST)) is None


def test_the_key_signs_under_its_id_and_its_signature_checks_only_for_that_digest():
    ring = KeyRing.from_env({"FUPAN_SIGNING_KEY": f"  {OLD}\n"})  # taken without the space around it
    assert ring.sign(DIGEST) == (named(OLD), mac(OLD, DIGEST))
    assert ring.check(named(OLD), DIGEST, mac(OLD, DIGEST)) is True
    assert ring.check(named(OLD), DIGEST, mac(NEW, DIGEST)) is False  # recomputed without the key
    assert ring.check(named(OLD), DIGEST[::-1], mac(OLD, DIGEST)) is False  # another link's signature
    assert ring.check(named(OLD), DIGEST, "") is False
    assert ring.check(named(NEW), DIGEST, mac(NEW, DIGEST)) is None  # a key this ring does not hold


def test_a_key_file_rotates_its_first_key_signs_and_every_key_verifies(tmp_path: Path):
    keys = tmp_path / "keys"
    keys.write_text(f"# rotated 2026-05\n\n{NEW}\n  \n{OLD}\n", encoding="utf-8")
    ring = KeyRing.from_env({"FUPAN_SIGNING_KEY_FILE": str(keys)})
    assert ring.signing == named(NEW) and set(ring.keys) == {named(NEW), named(OLD)}
    assert ring.check(named(OLD), DIGEST, mac(OLD, DIGEST)) is True  # an old link still verifies
    assert ring.sign(DIGEST) == (named(NEW), mac(NEW, DIGEST))

    third = "t" * 33
    both = KeyRing.from_env({"FUPAN_SIGNING_KEY": third, "FUPAN_SIGNING_KEY_FILE": str(keys)})
    assert both.signing == named(third) and set(both.keys) == {named(third), named(NEW), named(OLD)}


@pytest.mark.parametrize("length", [1, 31])
def test_a_key_under_32_characters_is_refused_and_32_is_enough(length: int):
    with pytest.raises(BadRequest) as refused:
        KeyRing.from_env({"FUPAN_SIGNING_KEY": "k" * length})
    assert refused.value.code == "bad_signing_key"
    assert refused.value.details == {"key_id": named("k" * length)}
    assert isinstance(refused.value.message_zh, str) and "32" in refused.value.message_zh
    assert "32" in refused.value.message
    assert KeyRing.from_env({"FUPAN_SIGNING_KEY": "k" * 32}).signing == named("k" * 32)


def test_a_short_key_in_the_file_is_refused_too_and_an_unreadable_file_is_named(tmp_path: Path):
    keys = tmp_path / "keys"
    keys.write_text(f"{NEW}\nshort\n", encoding="utf-8")
    with pytest.raises(BadRequest) as short:
        KeyRing.from_env({"FUPAN_SIGNING_KEY_FILE": str(keys)})
    assert (short.value.code, short.value.details) == ("bad_signing_key", {"key_id": named("short")})

    missing = tmp_path / "no such file"
    with pytest.raises(BadRequest) as unreadable:
        KeyRing.from_env({"FUPAN_SIGNING_KEY_FILE": str(missing)})
    assert (unreadable.value.code, unreadable.value.details) == ("bad_signing_key", {"path": str(missing)})
    assert isinstance(unreadable.value.message_zh, str) and "FUPAN_SIGNING_KEY_FILE" in unreadable.value.message_zh
