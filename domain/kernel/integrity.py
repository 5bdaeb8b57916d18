"""A deal's hash chain (docs/ARCHITECTURE.md "Integrity"): digest_n = SHA-256(digest_{n-1} + canonical JSON of event n).

Canonical JSON = keys sorted, no insignificant white space, UTF-8 (non-ASCII kept). Anyone can recompute a
chain from an export; the closing digest is printed on score slips.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical_json(payload: Any) -> str:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def next_digest(previous_digest: str, payload: Any) -> str:
    return hashlib.sha256((previous_digest + canonical_json(payload)).encode()).hexdigest()

