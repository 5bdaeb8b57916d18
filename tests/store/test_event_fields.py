"""A stored event's fields as the events listings read them (domain/model/chain.py `event_fields`): the domain
fields, without the event library's bookkeeping and never the sealed seed — docs/SECURITY.md: "the seed of a
server-dealt deal is never in any answer before the deal is closed" (commit–reveal)."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from domain.model.chain import event_fields
from domain.model.deal import Deal


def test_an_events_fields_are_its_domain_fields_without_the_sealed_seed() -> None:
    deal, match = uuid4(), uuid4()
    created = Deal.Created(
        originator_id=deal, originator_version=1, timestamp=datetime(2026, 12, 7, tzinfo=UTC),
        originator_topic="fupan:Deal", game="doudizhu", options={}, seats=["甲", "乙", "丙"], first=0,
        hands=[["S3"], ["S4"], ["S5"]], kitty=["S6"], context={}, match_id=match, number=1,
        seed_commitment="c" * 64, sealed_seed="s" * 64, meta={}, recorded_by={"role": "referee"}, digest="d" * 64)
    assert event_fields(created) == {
        "game": "doudizhu", "options": {}, "seats": ["甲", "乙", "丙"], "first": 0,
        "hands": [["S3"], ["S4"], ["S5"]], "kitty": ["S6"], "context": {}, "match_id": match, "number": 1,
        "seed_commitment": "c" * 64, "meta": {}, "recorded_by": {"role": "referee"}}
