"""升级's score slip fact by fact, as docs/record-format.md "Result-only records" lists them and docs/rules/shengji.md
prices them: a 抢庄 deal nobody declared in is dealt again (§3.4), a deal cut short by a revoke or a miscount
(§3.13, only where the referee adjudicates) says how many points the dealer's side had, a played-out deal's tricks
hold 200 points less the kitty's (§3.1), 抠底 multiplies the buried points by the winning play's pairs (§3.9), a
failed throw costs `sj.throwPenalty` (§3.13). Two decks of 108 cards, 8 buried: a hand holds 25 cards, so at most
12 pairs and 25 cards taken back."""

from __future__ import annotations

from typing import Any

import pytest

from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction
from domain.records.slips import score

SEATS = ["东", "南", "西", "北"]
CONTEXT = {"levels": [5, 3], "dealer": 0, "deal_number": 4}
QIANGZHUANG = {"levels": [4, 4], "dealer": None, "deal_number": 1}  # deal 1: nobody is dealer yet
ADJUDICATE = {"sj.illegalPlay": "adjudicate"}


def slip(facts: dict[str, Any], options: dict[str, Any] | None = None,
         context: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    return score(DealSetup("shengji", options or {}, SEATS, 0, [], [], CONTEXT if context is None else context),
                 facts)


def refused(facts: dict[str, Any], options: dict[str, Any] | None = None,
            context: dict[str, Any] | None = None) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        slip(facts, options, context)
    return caught.value


def test_a_qiangzhuang_deal_nobody_declared_in_is_dealt_again() -> None:
    """§3.4: in deal 1 (抢庄) a deal nobody declares in is redealt: nobody scores and the levels stay."""
    stored, result = slip({"redeal": True}, context=QIANGZHUANG)
    assert stored == {"redeal": True}
    assert result == {"redeal": True, "scores": [0, 0, 0, 0], "deal_number": 1, "levels": [4, 4]}


def test_only_a_qiangzhuang_deal_is_dealt_again_and_with_nothing_else_on_its_slip() -> None:
    """A table with a dealer plays its deal whoever declares (the kitty names the trump, §3.4)."""
    assert refused({"redeal": True}).code == "impossible_slip"
    assert refused({"redeal": True, "points": 0}, context=QIANGZHUANG).code == "impossible_slip"


def test_a_played_out_deal_without_a_kitty_gives_the_dealer_side_the_rest_of_the_points() -> None:
    stored, result = slip({"dealer": 0, "points": 60})
    assert stored["kitty"] is None and stored["dealer_points"] == 140
    assert (result["attacker_points"], result["dealer_team_points"]) == (60, 140)
    assert result["points"]["kitty_cards"] == 0 and result["points"]["total"] == 60


def test_a_buried_kitty_the_dealer_kept_counts_for_nobody() -> None:
    """§3.9 保底: the dealer's side won the last trick (no `pairs`): the buried points count for nobody, and the
    tricks held the rest."""
    stored, result = slip({"dealer": 0, "points": 60, "kitty": {"points": 25}})
    assert stored["kitty"] == {"points": 25, "pairs": None}
    assert (result["attacker_points"], result["dealer_team_points"]) == (60, 115)
    assert result["points"]["kitty_bonus"] == 0 and result["points"]["kitty_cards"] == 25


@pytest.mark.parametrize(("option", "pairs", "factor"), [
    ("doubling", 0, 2), ("doubling", 1, 4), ("doubling", 2, 8), ("doubling", 3, 16),
    ("linear", 0, 2), ("linear", 1, 4), ("linear", 2, 8), ("linear", 3, 12),
])
def test_koudi_multiplies_the_buried_points_by_the_winning_play(option: str, pairs: int, factor: int) -> None:
    """§3.9's table: single ×2, pair ×4, 2-pair tractor ×8, 3-pair ×16 (`doubling`) or ×12 (`linear`)."""
    _, result = slip({"dealer": 0, "points": 40, "kitty": {"points": 10, "pairs": pairs}},
                     {"sj.kittyMultiplier": option})
    assert result["points"]["kitty_multiplier"] == factor and result["points"]["kitty_bonus"] == 10 * factor
    assert result["attacker_points"] == 40 + 10 * factor


def test_the_winning_play_holds_at_most_a_hand_of_pairs() -> None:
    assert slip({"dealer": 0, "points": 0, "kitty": {"points": 0, "pairs": 12}})[0]["kitty"]["pairs"] == 12
    assert refused({"dealer": 0, "points": 0, "kitty": {"points": 0, "pairs": 13}}).code == "bad_slip"


@pytest.mark.parametrize(("points", "kitty"), [(40, 12), (180, 25), (0, 85)])
def test_the_kitty_points_come_in_fives_and_add_up_to_at_most_200(points: int, kitty: int) -> None:
    error = refused({"dealer": 0, "points": points, "kitty": {"points": kitty, "pairs": None}})
    assert error.code in ("impossible_slip", "bad_slip")
    if kitty <= 80:  # eight tens or kings at most: 85 is not a kitty at all
        assert error.code == "impossible_slip"
    assert slip({"dealer": 0, "points": 120, "kitty": {"points": 80, "pairs": None}})[1]["dealer_team_points"] == 0


def test_a_played_out_deal_names_no_other_dealer_points_than_the_rest() -> None:
    assert slip({"dealer": 0, "points": 60, "dealer_points": 140})[0]["dealer_points"] == 140
    assert refused({"dealer": 0, "points": 60, "dealer_points": 100}).code == "impossible_slip"


def test_a_deal_cut_short_by_a_revoke_counts_the_points_taken_so_far() -> None:
    """§3.13: a revoke ends the deal; its slip says what the dealer's side had taken (none if left out)."""
    stored, result = slip({"dealer": 0, "points": 60, "ended_by": "revoke", "offender": 1, "dealer_points": 40},
                          ADJUDICATE)
    assert (stored["ended_by"], stored["offender"], stored["dealer_points"]) == ("revoke", 1, 40)
    assert (result["dealer_team_points"], result["offender"], result["ended_by"]) == (40, 1, "revoke")
    stored, result = slip({"dealer": 0, "points": 60, "ended_by": "revoke", "offender": 1}, ADJUDICATE)
    assert stored["dealer_points"] == 0 and result["dealer_team_points"] == 0


@pytest.mark.parametrize("ending", ["revoke", "miscount"])
def test_a_revoke_or_a_miscount_names_its_offender_and_needs_a_referee_who_adjudicates(ending: str) -> None:
    missing = refused({"dealer": 0, "points": 60, "ended_by": ending}, ADJUDICATE)
    assert missing.code == "bad_slip" and missing.details["field"] == "offender"
    assert refused({"dealer": 0, "points": 60, "ended_by": ending, "offender": 1}).code == "impossible_slip"


def test_a_played_out_deal_has_no_offender() -> None:
    """`offender` is the seat whose irregularity ended the deal (docs/record-format.md): none when played out."""
    stored, result = slip({"dealer": 0, "points": 60, "offender": 1})
    assert stored["offender"] is None and result["offender"] is None


@pytest.mark.parametrize(("option", "retracted", "penalty"), [
    ("perRetractedCard", 1, 10), ("perRetractedCard", 3, 30), ("flat10", 3, 10), ("none", 3, 0),
])
def test_a_failed_throw_costs_what_the_option_says(option: str, retracted: int, penalty: int) -> None:
    """§3.13: 10 per card taken back (S004), 10 per failed throw, or nothing; an attacker's lowers P."""
    stored, result = slip({"dealer": 0, "points": 60, "throws": [{"seat": 1, "retracted": retracted}]},
                          {"sj.throwPenalty": option})
    assert stored["throws"] == [{"seat": 1, "retracted": retracted}]
    assert result["attacker_points"] == 60 - penalty


def test_a_throw_takes_back_at_most_a_hand() -> None:
    stored, _ = slip({"dealer": 0, "points": 60, "throws": [{"seat": 1, "retracted": 25}]})
    assert stored["throws"] == [{"seat": 1, "retracted": 25}]
    assert refused({"dealer": 0, "points": 60, "throws": [{"seat": 1, "retracted": 26}]}).code == "bad_slip"


@pytest.mark.parametrize("throws", ["one", [1], [{"seat": 1, "retracted": 1}, "two"]])
def test_the_failed_throws_are_a_list_of_throws(throws: Any) -> None:
    assert refused({"dealer": 0, "points": 60, "throws": throws}).code == "bad_slip"


def test_a_whole_slip_is_stored_as_read_and_every_penalty_moves_p_by_the_offenders_side() -> None:
    """§3.13's sign rule: an attacker's penalty lowers P, a dealer-team player's raises it. Dealer 东 (team 0 =
    东 西): 西's failed throw of 2 cards (+20), 南's wrong follow (−20), 北's foul (−10), and 抠底 of 10 points
    with a pair (×4): P = 60 + 40 + 20 − 20 − 10 = 90; the result lists each penalty (docs/record-format.md)."""
    foul = {"seat": 3, "code": "talking", "note": "暗示", "penalty": 10}
    stored, result = slip({"dealer": 0, "points": 60, "kitty": {"points": 10, "pairs": 1},
                           "throws": [{"seat": 2, "retracted": 2}],
                           "penalties": [{"seat": 1, "reason": "wrong_follow", "points": 20}],
                           "fouls": [foul], "trump": "S", "declarer": 2},
                          {**ADJUDICATE, "sj.throwPenalty": "perRetractedCard"})
    assert stored == {"dealer": 0, "points": 60, "kitty": {"points": 10, "pairs": 1},
                      "throws": [{"seat": 2, "retracted": 2}],
                      "penalties": [{"seat": 1, "reason": "wrong_follow", "points": 20}],
                      "fouls": [{**foul, "type": "foul"}], "trump": "S", "declarer": 2, "ended_by": "play",
                      "offender": None, "dealer_points": 130}
    assert result["points"] == {"cards": 60, "kitty_cards": 10, "kitty_multiplier": 4, "kitty_bonus": 40,
                                "penalties": -10, "total": 90}
    assert [(p["seat"], p["reason"], p["points"], p["effect"]) for p in result["penalties"]] == [
        (2, "failed_throw", 20, 20), (1, "wrong_follow", 20, -20), (3, "foul", 10, -10)]
    assert (result["attacker_points"], result["declarer"], result["trump"]) == (90, 2, "S")


@pytest.mark.parametrize("reason", ["wrong_follow", "revoke", "miscount", "kitty_mishandled"])
def test_an_adjudicated_penalty_names_its_reason_and_at_most_1000_points(reason: str) -> None:
    facts = {"dealer": 0, "points": 100, "penalties": [{"seat": 0, "reason": reason, "points": 30}]}
    assert slip(facts, ADJUDICATE)[1]["attacker_points"] == 130  # the dealer's own penalty raises P
    for wrong in ({"seat": 0, "reason": "talking", "points": 30}, {"seat": 0, "reason": reason, "points": 0},
                  {"seat": 0, "reason": reason, "points": 1001}, {"reason": reason, "points": 30}):
        assert refused({**facts, "penalties": [wrong]}, ADJUDICATE).code == "bad_slip"


@pytest.mark.parametrize("penalties", ["one", [1]])
def test_the_penalties_are_a_list_of_penalties(penalties: Any) -> None:
    assert refused({"dealer": 0, "points": 60, "penalties": penalties}, ADJUDICATE).code == "bad_slip"
