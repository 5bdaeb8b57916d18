"""竞技挖坑's whole result, fact by fact, as docs/record-format.md "Result" (挖坑) lists them and
docs/rules/wakeng.md B6 prices them: s_i = b · m · d_digger · d_i (m = 2 per player who showed, d = 2 for a
player who doubled), or with `wk.globalDoubling` every stake × 2^(doubles). Entered as score slips (the engine's
own scoring of the facts)."""

from __future__ import annotations

from typing import Any

from domain.kernel.engine import DealSetup
from domain.records.slips import score

SEATS = ["甲", "乙", "丙"]


def scored(facts: dict[str, Any], options: dict[str, Any] | None = None,
           context: dict[str, Any] | None = None) -> dict[str, Any]:
    return score(DealSetup("wakeng", options or {}, SEATS, 0, [], [], context or {}), facts)[1]


def test_doubles_apply_pair_by_pair() -> None:
    """Digger 乙 bids 2, 甲 showed, 乙 and 丙 doubled: s_甲 = 2·2·2·1 = 8, s_丙 = 2·2·2·2 = 16; 乙 out first."""
    result = scored({"digger": 1, "bid": 2, "shows": [0], "doubles": [1, 2], "winner": 1})
    assert result == {
        "scores": [-8, 24, -16], "digger": 1, "bid": 2, "lanwa": False, "revealed": [0], "doubled": [1, 2],
        "stakes": [8, 0, 16], "winner": 1, "digger_won": True,
        "seat_facts": {"won": [0, 1, 0], "digger": [0, 1, 0]},
    }


def test_global_doubling_multiplies_every_stake() -> None:
    result = scored({"digger": 1, "bid": 2, "shows": [0], "doubles": [1, 2], "winner": 1}, {"wk.globalDoubling": True})
    assert (result["stakes"], result["scores"]) == ([16, 0, 16], [-16, 32, -16])


def test_lanwa_lost_by_the_digger() -> None:
    """烂挖: the first bidder digs at 1; a defender out first wins for both defenders."""
    result = scored({"digger": 0, "bid": 1, "lanwa": True, "winner": 2})
    assert (result["scores"], result["stakes"], result["lanwa"], result["digger_won"]) == ([-2, 1, 1], [0, 1, 1],
                                                                                          True, False)
    assert result["seat_facts"] == {"won": [0, 1, 1], "digger": [1, 0, 0]}


def test_a_duplicate_board_is_carried_for_matchpoints() -> None:
    """B7: duplicate scoring compares the same board and seat, so the result names its board."""
    assert scored({"digger": 2, "bid": 3, "winner": 2}, context={"board": 5})["board"] == 5
    assert "board" not in scored({"digger": 2, "bid": 3, "winner": 2})
