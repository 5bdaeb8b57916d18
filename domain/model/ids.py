"""Aggregate ids: uuid5 of natural keys, so re-submitting a create finds the aggregate that already
exists instead of making a second one; the recorder of what the command line and the demo store.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

# Fixed forever: changing it would change every deterministic ID.
NAMESPACE = UUID("6f1d4c2e-5b7a-5e0c-9a51-46757061e1a0")


# Who recorded an event. Auth arrives later; until then every write is local.
LOCAL_RECORDER: dict[str, Any] = {"role": "local", "token_id": None}


def tournament_id(key: str) -> UUID:
    return uuid5(NAMESPACE, f"tournament:{key}")


def match_id(tournament: UUID, table: str) -> UUID:
    return uuid5(NAMESPACE, f"match:{tournament}:{table}")


def deal_id_in_match(match: UUID, number: int) -> UUID:
    return uuid5(NAMESPACE, f"deal:{match}:{number}")


def deal_id_for_key(key: str) -> UUID:
    """Deals outside a match (standalone or imported) are named by a caller-chosen or content-derived key."""
    return uuid5(NAMESPACE, f"deal-key:{key}")
