"""三打一's whole result, fact by fact, as docs/record-format.md "Result" (三打一) lists them and docs/rules/sandayi.md
§1.7 and §1.9 define them: the stake u, the factors of M, and the `seat_facts` the standings' tiebreaks read
(庄家数量 = deals dealt, 庄家难度 = the dealer's winning bid, 头撂 = 3). Entered as score slips (the engine's own
scoring of the facts, domain/records/slips.py), so each deal is a dict of facts, not a played-out hand."""

from __future__ import annotations

from typing import Any

from domain.kernel.engine import DealSetup
from domain.records.slips import score

SEATS = ["甲", "乙", "丙", "丁"]


def scored(facts: dict[str, Any], options: dict[str, Any] | None = None, first: int = 0) -> dict[str, Any]:
    return score(DealSetup("sandayi", options or {}, SEATS, first, [], [], {}), facts)[1]


def by_seat(seat: int, value: int) -> list[int]:
    return [value if s == seat else 0 for s in range(4)]


def test_a_toulu_dealer_win_with_tanda() -> None:
    """§1.7: 头撂 won → u = 4; 摊打 ×2; the dealer +3uM, each defender −uM. §1.9: 庄家难度 counts 头撂 as its bid 3."""
    result = scored({"dealer": 0, "bid": 3, "declared": ["tanda"], "winner": 0})
    assert result == {
        "scores": [24, -8, -8, -8], "dealer": 0, "bid": 3, "toulu": True, "declared": ["tanda"], "dealer_won": True,
        "ending": "out", "winner": 0, "offender": None, "stake": 4,
        "multipliers": {"tanda": 2, "baodao": 1, "bomb": 1, "spring": 1, "total": 2}, "bombs": [0, 0, 0, 0],
        "seat_facts": {"dealer": by_seat(0, 1), "dealer_bid": by_seat(0, 3), "dealer_won_bid": by_seat(0, 3),
                       "won": [1, 0, 0, 0]},
    }


def test_a_dealer_loss() -> None:
    """The dealer (not the first bidder, so no 头撂) loses: −3u, each defender +u; the defenders' side won."""
    result = scored({"dealer": 2, "bid": 2, "winner": 1, "bombs": [{"seat": 1, "cards": 4}]})
    assert result["scores"] == [2, 2, -6, 2]
    assert (result["dealer"], result["bid"], result["toulu"], result["declared"]) == (2, 2, False, [])
    assert (result["dealer_won"], result["stake"], result["bombs"]) == (False, 2, [0, 1, 0, 0])
    assert result["seat_facts"] == {"dealer": by_seat(2, 1), "dealer_bid": by_seat(2, 2), "dealer_won_bid": [0] * 4,
                                    "won": [1, 1, 0, 1]}


def test_baodao_per_set_doubles_per_set() -> None:
    """§1.5/§1.7 with `sdy.baodao.perSet`: 报到 gives 2^sets (three sets: ×8, not ×6)."""
    result = scored({"dealer": 1, "bid": 1, "declared": ["baodao"], "baodao_sets": 3, "winner": 1},
                    {"sdy.baodao.perSet": True})
    assert result["multipliers"] == {"tanda": 1, "baodao": 8, "bomb": 1, "spring": 1, "total": 8}
    assert result["scores"] == [-8, 24, -8, -8]


def test_a_spring_doubles_under_the_option() -> None:
    result = scored({"dealer": 3, "bid": 2, "winner": 3, "spring": "spring"}, {"sdy.spring": True})
    assert result["multipliers"] == {"tanda": 1, "baodao": 1, "bomb": 1, "spring": 2, "total": 2}
    assert result["scores"] == [-4, -4, -4, 12]


def test_a_voided_deal_is_a_redeal_with_no_facts_for_anyone() -> None:
    """§1.10a.8: a second foul before the dealer is known voids the deal; nobody dealt, nobody won."""
    fouls = [{"seat": 1, "code": "talking"}, {"seat": 1, "code": "talking"}]
    result = scored({"ending": "void", "offender": 1, "fouls": fouls})
    assert result == {"redeal": True, "scores": [0, 0, 0, 0], "ending": "void", "offender": 1,
                      "seat_facts": {"dealer": [0] * 4, "dealer_bid": [0] * 4, "dealer_won_bid": [0] * 4,
                                     "won": [0] * 4}}
