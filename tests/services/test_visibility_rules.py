"""Who sees what of a deal, one rule at a time (docs/SECURITY.md §4 "Hidden cards"), on the pure functions the
services decide it with (domain/services/visibility.py): published once closed; hands for everyone then, before
only for the match's referee, the appeals committee and the organiser; seat and referee views of a live deal for
them only; a 升级 kitty buried by another seat shown as its size; a foul's note and a retraction's reason withheld
while live; `withheld` naming what an event's payload left out. The HTTP answers are tests/api's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import pytest
from conftest import EXAMPLE_RECORD

from domain.games import get_engine
from domain.kernel.engine import Viewpoint
from domain.kernel.errors import BadRequest, Hidden
from domain.model.deal import Deal
from domain.model.token import APPEALS, LOCAL, ORGANISER, PUBLIC, REFEREE, Principal
from domain.records.format import parse_record
from domain.services.visibility import (
    may_see_all,
    public_payload,
    published,
    require_record,
    shown_action,
    viewpoint_for,
    without_foul_notes,
)

MATCH, OTHER_MATCH = uuid4(), uuid4()
ITS_REFEREE = Principal(REFEREE, "t1", frozenset({str(MATCH)}))
ANOTHER_REFEREE = Principal(REFEREE, "t2", frozenset({str(OTHER_MATCH)}))
WITH_RIGHTS = [ITS_REFEREE, Principal(APPEALS, "t3"), Principal(ORGANISER, "t4"), LOCAL]
WITHOUT_RIGHTS = [PUBLIC, ANOTHER_REFEREE]
SHENGJI = get_engine("shengji")
BURY = {"seat": 2, "type": "bury", "cards": ["S2", "H3", "C4", "D5", "S6", "H7", "C8", "D9"]}
FOUL = {"seat": 1, "type": "foul", "code": "out_of_turn", "note": "played the 红桃A out of turn", "penalty": 0}


def example_deal(actions: int | None = None) -> Deal:
    """docs/record-format.md's complete 斗地主 example at its match, after its first `actions` (all: finished)."""
    setup, steps, _ = parse_record(EXAMPLE_RECORD)
    deal = Deal.start(uuid4(), setup, match=MATCH, recorded_by=LOCAL.recorded_by)
    for action in steps[:actions]:
        deal.record(action, LOCAL.recorded_by)
    return deal


def raised(error: type[Exception], call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(error) as caught:
        call(*args, **kwargs)
    return caught.value.code  # type: ignore[attr-defined]


# --- published: the deal is closed ------------------------------------------------------------------------


def test_a_deal_is_published_once_it_is_closed() -> None:
    live, closed = example_deal(3), example_deal()
    assert published(live) is False
    assert published(closed) is True


def test_a_live_record_goes_to_readers_with_rights_over_its_match_only() -> None:
    live = example_deal(3)
    for reader in WITH_RIGHTS:
        require_record(live, reader)  # no refusal
    for reader in WITHOUT_RIGHTS:
        assert raised(Hidden, require_record, live, reader) == "deal_not_published"


def test_a_closed_record_goes_to_everyone() -> None:
    closed = example_deal()
    for reader in WITH_RIGHTS + WITHOUT_RIGHTS:
        require_record(closed, reader)


@pytest.mark.parametrize("reader", WITH_RIGHTS + WITHOUT_RIGHTS)
def test_everyone_sees_all_of_a_published_deal(reader: Principal) -> None:
    assert may_see_all(True, MATCH, reader) is True


def test_only_readers_with_rights_see_all_of_a_live_deal() -> None:
    assert [may_see_all(False, MATCH, reader) for reader in WITH_RIGHTS] == [True] * len(WITH_RIGHTS)
    assert [may_see_all(False, MATCH, reader) for reader in WITHOUT_RIGHTS] == [False, False]
    # A deal outside any match has no referee of its own; the organiser and the committee still see it.
    assert may_see_all(False, None, ITS_REFEREE) is False
    assert may_see_all(False, None, Principal(ORGANISER, "t4")) is True


# --- viewpoints -------------------------------------------------------------------------------------------

DEAL = uuid4()


def test_a_live_deal_shows_seat_and_referee_views_only_to_readers_with_rights() -> None:
    for text in ("seat:0", "seat:2", "referee"):
        assert raised(Hidden, viewpoint_for, text, 3, full=False, closed=False, deal_id=DEAL) == "hidden_view"
    assert viewpoint_for("public", 3, full=False, closed=False, deal_id=DEAL) == Viewpoint("public")
    assert viewpoint_for("seat:2", 3, full=True, closed=False, deal_id=DEAL) == Viewpoint("seat", 2)
    assert viewpoint_for("referee", 3, full=True, closed=False, deal_id=DEAL) == Viewpoint("referee")
    assert viewpoint_for("public", 3, full=True, closed=False, deal_id=DEAL) == Viewpoint("public")


def test_the_public_view_of_a_closed_deal_is_the_whole_record() -> None:
    assert viewpoint_for("public", 3, full=True, closed=True, deal_id=DEAL) == Viewpoint("referee")
    # a seat's view stays what that seat could know, published or not
    assert viewpoint_for("seat:1", 4, full=True, closed=True, deal_id=DEAL) == Viewpoint("seat", 1)


def test_a_viewpoint_names_a_seat_of_the_deal() -> None:
    for text in ("seat:3", "seat:-1", "seat:01", "dealer", ""):
        assert raised(BadRequest, viewpoint_for, text, 3, full=True, closed=False, deal_id=DEAL) == "bad_viewpoint"
    # malformed is malformed before it is hidden
    assert raised(BadRequest, viewpoint_for, "seat:9", 3, full=False, closed=False, deal_id=DEAL) == "bad_viewpoint"


# --- actions: a buried 升级 kitty, a foul's note ----------------------------------------------------------

BURIED = {"seat": 2, "type": "bury", "count": 8}  # §3.5: the table sees how many cards, not which


def test_a_buried_kitty_is_seen_by_the_referee_and_the_seat_that_buried_it() -> None:
    assert shown_action(SHENGJI, BURY, Viewpoint("referee"), True) == BURY
    assert shown_action(SHENGJI, BURY, Viewpoint("seat", 2), True) == BURY


def test_another_seat_sees_a_buried_kitty_as_its_size_even_when_published() -> None:
    for seat in (0, 1, 3):
        assert shown_action(SHENGJI, BURY, Viewpoint("seat", seat), True) == BURIED
    assert shown_action(SHENGJI, BURY, Viewpoint("public"), True) == BURIED


def test_a_reader_without_rights_sees_the_public_form_whatever_the_viewpoint() -> None:
    for view_as in (Viewpoint("referee"), Viewpoint("seat", 2), Viewpoint("public")):
        assert shown_action(SHENGJI, BURY, view_as, False) == BURIED


def test_a_foul_is_announced_its_note_withheld_while_live() -> None:
    unnoted = {**FOUL, "note": None}
    for view_as in (Viewpoint("referee"), Viewpoint("seat", 1), Viewpoint("public")):
        assert shown_action(SHENGJI, FOUL, view_as, False) == unnoted
    # with rights (or once published) the referee's words are read, from any viewpoint
    for view_as in (Viewpoint("referee"), Viewpoint("seat", 1), Viewpoint("seat", 0), Viewpoint("public")):
        assert shown_action(SHENGJI, FOUL, view_as, True) == FOUL


def test_a_play_is_seen_by_all() -> None:
    play = {"seat": 0, "type": "play", "cards": ["SA"]}
    for full in (True, False):
        for view_as in (Viewpoint("referee"), Viewpoint("seat", 3), Viewpoint("public")):
            assert shown_action(SHENGJI, play, view_as, full) == play


def test_a_live_view_lists_its_fouls_without_their_notes() -> None:
    view = {"phase": "play", "fouls": [FOUL, {**FOUL, "seat": 0, "note": ""}]}
    assert without_foul_notes(view) == {"phase": "play", "fouls": [{**FOUL, "note": None}, {**FOUL, "seat": 0,
                                                                                               "note": ""}]}
    assert view["fouls"][0]["note"] == FOUL["note"]  # the engine's own view is left as it was
    assert without_foul_notes({"phase": "play", "fouls": []}) == {"phase": "play", "fouls": []}
    assert without_foul_notes({"phase": "play"}) == {"phase": "play"}


# --- events' payloads -------------------------------------------------------------------------------------

WHEN = datetime(2026, 12, 7, tzinfo=UTC)
BY = {"role": "referee", "token_id": "t1"}


def event(kind: type, **fields: Any) -> Any:
    return kind(originator_id=UUID(int=1), originator_version=2, timestamp=WHEN, recorded_by=BY, digest="d" * 64,
                **fields)


def test_a_live_deals_created_event_shows_no_hands_and_no_kitty() -> None:
    created = example_deal(0).collect_events()[0]
    payload = {"game": "doudizhu", "seats": ["甲", "乙", "丙"], "hands": [["SA"]], "kitty": ["H2"], "first": 0}
    assert public_payload(created, payload, get_engine("doudizhu")) == {
        "game": "doudizhu", "seats": ["甲", "乙", "丙"], "first": 0, "withheld": ["hands", "kitty"]}


def test_a_live_deals_words_are_withheld() -> None:
    annotated = event(Deal.Annotated, at=3, text="记错", author="王")
    assert public_payload(annotated, {"at": 3, "text": "记错", "author": "王"}, SHENGJI) == {
        "at": 3, "withheld": ["text", "author"]}
    commented = event(Deal.Commented, step=4, glyph="?", text="错", text_en="a mistake", author="王")
    assert public_payload(commented, {"step": 4, "glyph": "?", "text": "错", "text_en": "a mistake", "author": "王"},
                          SHENGJI) == {"step": 4, "withheld": ["glyph", "text", "text_en", "author"]}
    retracted = event(Deal.Retracted, at=5, reason="记错了红桃A")
    assert public_payload(retracted, {"at": 5, "reason": "记错了红桃A"}, SHENGJI) == {
        "at": 5, "withheld": ["reason"]}


def test_a_live_deals_actions_in_their_public_form() -> None:
    buried = event(Deal.ActionRecorded, action=BURY)
    assert public_payload(buried, {"action": dict(BURY)}, SHENGJI) == {"action": BURIED, "withheld": ["action"]}
    fouled = event(Deal.ActionRecorded, action=FOUL)
    assert public_payload(fouled, {"action": dict(FOUL)}, SHENGJI) == {"action": {**FOUL, "note": None},
                                                                       "withheld": ["action"]}
    play = {"seat": 0, "type": "play", "cards": ["SA"]}
    assert public_payload(event(Deal.ActionRecorded, action=play), {"action": dict(play)}, SHENGJI) == {
        "action": play}


def test_a_finished_event_is_shown_whole() -> None:
    finished = event(Deal.Finished, result={"scores": [2, -1, -1]})
    assert public_payload(finished, {"result": {"scores": [2, -1, -1]}}, SHENGJI) == {
        "result": {"scores": [2, -1, -1]}}
