"""竞技挖坑's score slip as docs/record-format.md "Result-only records" lists its facts: what is stored (`first` only
when the referee entered it), 烂挖's two conditions (B4), and the seats of `shows` and `doubles` (B5–B6) —
each a player of the table, each at most once."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score

SEATS = ["甲", "乙", "丙"]


def slip(facts: dict[str, Any], first: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the facts as stored, the result) on a table whose rotation gives `first` the first bid."""
    return score(DealSetup("wakeng", {}, SEATS, first, [], [], {}), facts)


def refused(facts: dict[str, Any], first: int = 0) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        slip(facts, first)
    return caught.value


def test_the_slip_is_stored_fact_by_fact_and_first_only_when_entered():
    foul = {"seat": 2, "code": "leave", "note": "离座"}
    stored, _ = slip({"first": 2, "digger": 1, "bid": 3, "shows": [0], "doubles": [2, 1], "winner": 0,
                      "fouls": [foul]})
    assert stored == {"first": 2, "digger": 1, "bid": 3, "lanwa": False, "shows": [0], "doubles": [2, 1],
                      "winner": 0, "fouls": [{**foul, "type": "foul"}]}
    rotation, _ = slip({"digger": 1, "bid": 2, "winner": 1}, first=2)
    assert rotation == {"digger": 1, "bid": 2, "lanwa": False, "shows": [], "doubles": [], "winner": 1, "fouls": []}


def test_lanwa_is_the_first_bidder_digging_at_1_as_the_referee_saw_who_bid_first():
    """B4: everyone passed, so the first bidder digs at 1 — a bid of 2, or another digger, cannot be 烂挖. The
    first bidder is the one entered on the slip, else the table's rotation."""
    assert slip({"first": 1, "digger": 1, "bid": 1, "lanwa": True, "winner": 1}, first=0)[1]["lanwa"] is True
    assert slip({"digger": 2, "bid": 1, "lanwa": True, "winner": 0}, first=2)[1]["lanwa"] is True
    assert refused({"first": 1, "digger": 1, "bid": 2, "lanwa": True, "winner": 1}).code == "impossible_slip"
    assert refused({"first": 1, "digger": 0, "bid": 1, "lanwa": True, "winner": 1}).code == "impossible_slip"
    assert refused({"digger": 1, "bid": 1, "lanwa": True, "winner": 1}, first=0).code == "impossible_slip"
    assert refused({"first": 3, "digger": 1, "bid": 1, "winner": 1}).code == "bad_slip"


@pytest.mark.parametrize("name", ["shows", "doubles"])
def test_who_showed_or_doubled_is_each_a_player_of_the_table_once(name: str):
    for outside in ([3], [-1], [True], ["1"], 1):
        error = refused({"digger": 0, "bid": 1, "winner": 0, name: outside})
        assert (error.code, error.details["field"]) == ("bad_slip", name)
        assert "3" in error.message and "3" in error.message_zh  # the table's 3 players
        assert {"shows": "明牌", "doubles": "加倍"}[name] in error.message_zh  # what is asked, in plain words
    twice = refused({"digger": 0, "bid": 1, "winner": 0, name: [1, 1]})
    assert (twice.code, twice.details["field"]) == ("impossible_slip", name)
    assert {"shows": "showed", "doubles": "doubled"}[name] in twice.message
    assert slip({"digger": 0, "bid": 1, "winner": 0, name: [2, 0, 1]})[0][name] == [2, 0, 1]
