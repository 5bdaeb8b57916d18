"""The per-deal hash chain (DESIGN.md §5): each deal or appeal event carries a running SHA-256 (`digest`)
over the canonical JSON of the event; `digest_payload` is the exact input, so a verifier can recompute the chain
from storage.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.kernel.integrity import GENESIS, next_digest

# Fields that are bookkeeping of the library, the digest itself, or secret until revealed.
_UNCHAINED = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "digest", "sealed_seed"}
)


def _jsonable(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    return value


def digest_payload(topic: str, deal: UUID, version: int, timestamp: datetime, fields: dict[str, Any]) -> dict:
    """The canonical content of one deal event that the hash chain covers."""
    payload = {key: _jsonable(value) for key, value in fields.items() if key not in _UNCHAINED}
    payload.update(type=topic, deal=str(deal), version=version, time=timestamp.isoformat())
    return payload


def event_fields(event: Any) -> dict[str, Any]:
    """The domain fields of a stored event (without the library's bookkeeping)."""
    return {f.name: getattr(event, f.name) for f in dataclasses.fields(event) if f.name not in _UNCHAINED}


def verify_chain(events: list[Any]) -> int | None:
    """The version of the first deal event whose digest does not match its content, or None if all do."""
    digest = GENESIS
    for event in events:
        fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
        payload = digest_payload(type(event).TOPIC, event.originator_id, event.originator_version,
                                 event.timestamp, fields)
        digest = next_digest(digest, payload)
        if event.digest != digest:
            return event.originator_version
    return None
