"""斗地主's score slip of a deal everyone passed (docs/record-format.md "Result-only records": `{"redeal": true}`,
fouls aside): stored as such, and refused with anything else on it — it had no landlord and no play."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score


def slip(facts: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return score(DealSetup("doudizhu", {}, ["甲", "乙", "丙"], 0, [], [], {}), facts)


def test_a_passed_deal_is_stored_as_a_redeal_with_its_fouls():
    stored, result = slip({"redeal": True})
    assert stored == {"redeal": True, "fouls": []} and result["redeal"] is True
    foul = {"seat": 1, "code": "early_play", "note": "抢出", "penalty": 2}
    stored, _ = slip({"redeal": True, "fouls": [foul]})
    assert stored["redeal"] is True and [(f["seat"], f["code"]) for f in stored["fouls"]] == [(1, "early_play")]


@pytest.mark.parametrize("extra", [{"landlord": 0}, {"winner": "landlord"}, {"bombs": 1}])
def test_a_passed_deal_has_nothing_else_on_its_slip(extra: dict[str, Any]):
    with pytest.raises(IllegalAction) as caught:
        slip({"redeal": True, **extra})
    assert caught.value.code == "impossible_slip" and caught.value.details["facts"] == sorted(extra)


def refused(facts: dict[str, Any]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        slip(facts)
    return caught.value


def test_spring_and_anti_spring_name_who_won():
    """§2.7a.7: 春天 is the landlord's win, 反春天 the farmers'; the other winner is impossible."""
    assert slip({"landlord": 1, "winner": "landlord", "spring": "spring"})[0]["spring"] == "spring"
    assert slip({"landlord": 1, "winner": "farmers", "spring": "anti_spring"})[0]["spring"] == "anti_spring"
    assert slip({"landlord": 1, "winner": "farmers"})[0]["spring"] == "none"
    assert refused({"landlord": 1, "winner": "farmers", "spring": "spring"}).code == "impossible_slip"
    assert refused({"landlord": 1, "winner": "landlord", "spring": "anti_spring"}).code == "impossible_slip"
    assert refused({"landlord": 1, "winner": "landlord", "spring": "SPRING"}).code == "bad_slip"


def test_a_spring_holds_no_more_bombs_than_the_landlords_20_cards():
    """In a 春天 only the landlord played: 4 cards a bomb, 2 the rocket, within 20 cards."""
    assert slip({"landlord": 0, "winner": "landlord", "spring": "spring", "bombs": 5})[0]["bombs"] == 5
    assert slip({"landlord": 0, "winner": "landlord", "spring": "spring", "bombs": 4, "rocket": True})[0]["rocket"]
    error = refused({"landlord": 0, "winner": "landlord", "spring": "spring", "bombs": 5, "rocket": True})
    assert error.code == "impossible_slip" and (error.details["bombs"], error.details["rocket"]) == (5, True)
    assert slip({"landlord": 0, "winner": "landlord", "bombs": 5, "rocket": True})[0]["bombs"] == 5  # no spring


def test_who_went_out_first():
    """`out`: the landlord when the landlord won; else a farmer, by default the one after the landlord."""
    assert slip({"landlord": 2, "winner": "landlord"})[0]["out"] == 2
    assert slip({"landlord": 2, "winner": "farmers"})[0]["out"] == 0
    assert slip({"landlord": 0, "winner": "farmers", "out": 2})[0]["out"] == 2
    assert refused({"landlord": 0, "winner": "farmers", "out": 0}).code == "impossible_slip"
    assert refused({"landlord": 0, "winner": "landlord", "out": 1}).code == "impossible_slip"


@pytest.mark.parametrize(("reveal", "stored", "factor"), [
    ({"seat": 2, "stage": "start"}, {"seat": 2, "stage": "start"}, 5),
    ({"seat": 0, "stage": "deal", "received": 6}, {"seat": 0, "stage": "deal", "received": 6}, 4),
    ({"seat": 1, "stage": "after_kitty"}, {"seat": 1, "stage": "after_kitty"}, 2),
])
def test_a_reveal_is_stored_as_entered_and_priced_by_its_kind(reveal: dict[str, Any], stored: dict[str, Any],
                                                              factor: int):
    """§2.4's table: 明牌开始 ×5, 发牌明牌 with 0–6 cards received ×4, the landlord's 明牌 after the kitty ×2."""
    facts, result = slip({"landlord": 1, "winner": "landlord", "reveal": reveal})
    assert facts["reveal"] == stored and result["multipliers"]["reveal"] == factor


def test_only_the_landlord_shows_after_the_kitty():
    """§2.3: 明牌 after the kitty is the landlord's (before leading)."""
    error = refused({"landlord": 1, "winner": "landlord", "reveal": {"seat": 0, "stage": "after_kitty"}})
    assert error.code == "impossible_slip" and (error.details["seat"], error.details["landlord"]) == (0, 1)
    assert refused({"landlord": 1, "winner": "landlord", "reveal": {"stage": "start"}}).code == "bad_slip"


def test_a_slip_without_robs_or_reveal_multiplies_by_nothing():
    """No 抢地主 and no 明牌: ×1 each; one rob ×2 (§2.4)."""
    _, result = slip({"landlord": 0, "winner": "landlord"})
    assert (result["robs"], result["multipliers"]["rob"], result["multipliers"]["reveal"]) == (0, 1, 1)
    assert slip({"landlord": 0, "winner": "landlord", "robs": 1})[1]["multipliers"]["rob"] == 2


@pytest.mark.parametrize(("spring", "winner", "facts"), [
    ("spring", "landlord", (True, False, 2)), ("anti_spring", "farmers", (False, True, 2)),
    ("none", "farmers", (False, False, 1)), ("none", "landlord", (False, False, 1)),
])
def test_spring_and_anti_spring_double_the_deal(spring: str, winner: str, facts: tuple[bool, bool, int]):
    """§2.4: 春天 and 反春天 ×2 each; a deal played out otherwise ×1 (the landlord 1, 3 chips a multiple)."""
    _, result = slip({"landlord": 1, "winner": winner, "spring": spring})
    assert (result["spring"], result["anti_spring"], result["multipliers"]["spring"]) == facts
    assert abs(result["scores"][1]) == 3 * facts[2]


def test_a_whole_slip_is_stored_as_read():
    """docs/record-format.md's example: the facts as stored, no bomb or rocket unless entered."""
    stored, result = slip({"landlord": 0, "robs": 1, "winner": "landlord"})
    assert stored == {"landlord": 0, "robs": 1, "reveal": None, "bombs": 0, "rocket": False, "spring": "none",
                      "winner": "landlord", "out": 0, "fouls": []}
    assert result["multipliers"] == {"rob": 2, "reveal": 1, "bomb": 1, "spring": 1, "total": 2}
    stored, result = slip({"landlord": 2, "bombs": 1, "rocket": True, "winner": "farmers", "out": 1,
                           "reveal": {"seat": 0, "stage": "deal", "received": 13}})
    assert stored == {"landlord": 2, "robs": 0, "reveal": {"seat": 0, "stage": "deal", "received": 13}, "bombs": 1,
                      "rocket": True, "spring": "none", "winner": "farmers", "out": 1, "fouls": []}
    assert result["multipliers"] == {"rob": 1, "reveal": 2, "bomb": 4, "spring": 1, "total": 8}
