"""三打一's score slip fact by fact, as docs/record-format.md "Result-only records" lists them and
docs/rules/sandayi.md §1.5–§1.8 define them: the dealer's declarations (摊打 only after 头撂, 报到 with its
qualifying sets), 报到's 直接赢 where the rules allow it, a deal voided before the dealer was known, the bombs
(天王炸弹 included). Seat 0 bids first, so a dealer 0 who bid 3 made 头撂."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score

SEATS = ["甲", "乙", "丙", "丁"]


def slip(facts: dict[str, Any], options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    return score(DealSetup("sandayi", options or {}, SEATS, 0, [], [], {}), facts)


def refused(facts: dict[str, Any], options: dict[str, Any] | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        slip(facts, options)
    return caught.value


INSTANT = {"sdy.baodao.instantWin": True}


def test_baodao_wins_at_once_where_the_rules_allow_it() -> None:
    """§1.5 EXT-M2 直接赢: 报到 ends the deal as the dealer's win, without the ×2 (§1.7: u = 2, M = 1)."""
    stored, result = slip({"dealer": 1, "bid": 2, "declared": ["baodao"], "ending": "instant"}, INSTANT)
    assert (stored["ending"], stored["winner"]) == ("instant", 1)
    assert (result["dealer_won"], result["winner"], result["multipliers"]["baodao"]) == (True, 1, 1)
    assert result["scores"] == [-2, 6, -2, -2]


def test_instant_win_needs_baodao_and_the_option() -> None:
    assert refused({"dealer": 1, "bid": 2, "declared": ["baodao"], "ending": "instant"}).code == "impossible_slip"
    assert refused({"dealer": 1, "bid": 2, "ending": "instant"}, INSTANT).code == "impossible_slip"


def test_a_deal_voided_before_the_dealer_was_known_is_stored_with_its_offender_and_fouls() -> None:
    """§1.10a.8: a second foul before the dealer is known voids the deal; it is dealt again, nobody scores."""
    fouls = [{"seat": 2, "code": "talking", "note": ""}, {"seat": 2, "code": "peek", "note": ""}]
    stored, result = slip({"ending": "void", "offender": 2, "fouls": fouls})
    assert stored == {"ending": "void", "offender": 2, "fouls": [{**f, "type": "foul"} for f in fouls]}
    assert (result["redeal"], result["scores"], result["offender"]) == (True, [0, 0, 0, 0], 2)


def test_toulu_with_tanda_baodao_and_the_kings_bomb() -> None:
    """§1.7: 头撂 won → u = 4; 摊打 ×2, 报到 ×2, 天王炸弹 ×3 under `tiered`: M = 12, the dealer +3·4·12."""
    stored, result = slip({"dealer": 0, "bid": 3, "declared": ["tanda", "baodao"], "winner": 0,
                           "bombs": [{"seat": 1, "king": True}]}, {"sdy.bombMultiplier": "tiered"})
    assert stored["bombs"] == [{"seat": 1, "king": True}] and stored["declared"] == ["tanda", "baodao"]
    assert result["multipliers"] == {"tanda": 2, "baodao": 2, "bomb": 3, "spring": 1, "total": 12}
    assert result["scores"] == [144, -48, -48, -48] and result["bombs"] == [0, 1, 0, 0]


def test_tanda_only_after_toulu() -> None:
    """§1.5: 摊打 only in a 头撂 deal — the first bidder (seat 0) opened with 3."""
    assert refused({"dealer": 1, "bid": 3, "declared": ["tanda"], "winner": 1}).code == "impossible_slip"
    assert refused({"dealer": 0, "bid": 2, "declared": ["tanda"], "winner": 0}).code == "impossible_slip"


@pytest.mark.parametrize("declared", [["baodao", "baodao"], ["tanda", "lock"], None, "baodao"])
def test_the_declarations_are_tanda_and_baodao_each_once(declared: Any) -> None:
    assert refused({"dealer": 0, "bid": 3, "declared": declared, "winner": 0}).code == "bad_slip"


def test_baodao_counts_its_qualifying_sets() -> None:
    """`baodao_sets` 1–5, default 1: the dealer's 33 cards hold at most the four jokers and four 7-card bombs
    (32 cards); with `sdy.baodao.perSet` each set doubles (§1.7: two sets ×4). No 报到, no sets."""
    assert slip({"dealer": 1, "bid": 2, "winner": 1})[0]["baodao_sets"] == 0
    assert slip({"dealer": 1, "bid": 2, "declared": ["baodao"], "winner": 1})[0]["baodao_sets"] == 1
    for sets in (1, 5):
        stored, result = slip({"dealer": 1, "bid": 2, "declared": ["baodao"], "baodao_sets": sets, "winner": 1},
                              {"sdy.baodao.perSet": True})
        assert stored["baodao_sets"] == sets and result["multipliers"]["baodao"] == 2 ** sets
    for sets in (0, 6):
        assert refused({"dealer": 1, "bid": 2, "declared": ["baodao"], "baodao_sets": sets, "winner": 1}).code == \
            "bad_slip"


@pytest.mark.parametrize("bombs", ["two", [1], [{"seat": 1, "cards": 9}], [{"seat": 1, "cards": 3}],
                                   [{"seat": 4, "cards": 4}], [{"cards": 4}]])
def test_the_bombs_are_a_list_of_bombs_of_4_to_8_cards(bombs: Any) -> None:
    assert refused({"dealer": 1, "bid": 2, "winner": 1, "bombs": bombs}).code == "bad_slip"


@pytest.mark.parametrize(("rule", "bombs", "factor"), [
    ("tiered", [4, 5], 1), ("tiered", [6, 7], 4), ("tiered", [8, "king"], 9), ("x2each", [4, "king", 8], 8),
    ("none", [8, "king"], 1),
])
def test_each_bomb_multiplies_as_the_option_says(rule: str, bombs: list[Any], factor: int) -> None:
    """§1.7 `sdy.bombMultiplier`: `tiered` ×2 for a 6- or 7-card bomb, ×3 for an 8-card bomb or 天王炸弹, ×1 for
    4–5 cards; `x2each` ×2 a bomb; `none` nothing. Bombs of several seats multiply together."""
    entered = [{"seat": index % 4, "king": True} if size == "king" else {"seat": index % 4, "cards": size}
               for index, size in enumerate(bombs)]
    stored, result = slip({"dealer": 1, "bid": 1, "winner": 1, "bombs": entered}, {"sdy.bombMultiplier": rule})
    assert stored["bombs"] == entered and result["multipliers"]["bomb"] == factor
    assert result["scores"][1] == 3 * factor


SPRING = {"sdy.spring": True}


@pytest.mark.parametrize(("spring", "winner", "factor"), [("spring", 1, 2), ("anti_spring", 2, 2), ("none", 1, 1),
                                                          ("none", 2, 1)])
def test_spring_and_anti_spring_double_under_the_option(spring: str, winner: int, factor: int) -> None:
    """§1.7 `sdy.spring`: 春天 (the dealer went out, no defender played) or 反春天 (a defender went out after the
    dealer's one play) ×2; a deal played out otherwise ×1."""
    stored, result = slip({"dealer": 1, "bid": 2, "winner": winner, "spring": spring}, SPRING)
    assert stored["spring"] == spring and result["multipliers"]["spring"] == factor


@pytest.mark.parametrize(("spring", "winner", "ending"), [("spring", 2, "out"), ("anti_spring", 1, "out"),
                                                          ("spring", None, "foul")])
def test_spring_needs_its_winner_and_a_deal_played_out(spring: str, winner: int | None, ending: str) -> None:
    facts: dict[str, Any] = {"dealer": 1, "bid": 2, "spring": spring, "ending": ending}
    if ending == "foul":
        facts.update(offender=2, fouls=[{"seat": 2, "code": "talking"}, {"seat": 2, "code": "peek"}])
    else:
        facts["winner"] = winner
    assert refused(facts, SPRING).code == "impossible_slip"


def test_a_whole_slip_is_stored_as_read() -> None:
    stored, _ = slip({"dealer": 2, "bid": 2, "declared": ["baodao"], "baodao_sets": 2, "winner": 0,
                      "bombs": [{"seat": 0, "cards": 7}], "fouls": [{"seat": 3, "code": "talking"}]})
    assert stored == {"dealer": 2, "bid": 2, "declared": ["baodao"], "baodao_sets": 2,
                      "bombs": [{"seat": 0, "cards": 7}], "spring": "none", "ending": "out", "winner": 0,
                      "offender": None, "fouls": [{"seat": 3, "type": "foul", "code": "talking", "note": ""}]}
