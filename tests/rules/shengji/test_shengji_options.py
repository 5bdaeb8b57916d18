"""升级 ruleset switches (docs/rules/shengji.md §3.4–3.14a) under both presets, enforcement modes, referee records,
timeouts, declaration timing and information views — on the real engine."""

from __future__ import annotations

from typing import Any

import pytest
from test_shengji_rules import ENGINE, deal_with, declare, final_round, play, refused, table

from domain.games.shengji.options import PRESETS
from domain.games.shengji.state import ShengjiState
from domain.kernel.engine import Viewpoint
from domain.kernel.errors import IllegalAction

PRESET_NAMES = sorted(PRESETS)


def both(preset: str, **extra: Any) -> dict[str, Any]:
    return {"sj.preset": preset, **extra}


def allowed_when(switch: bool, state: ShengjiState, action: dict[str, Any], code: str) -> None:
    """With the switch on the action is taken; off, it is refused with `code` and changes nothing."""
    if switch:
        ENGINE.apply(state, action)
    else:
        assert refused(state, action) == code


# -- presets ------------------------------------------------------------------------------------------------------


def test_default_preset_is_s004_and_presets_fill_only_what_the_caller_left_out():
    assert ENGINE.resolve_options({})["sj.preset"] == "s004"
    for name, values in PRESETS.items():
        resolved = ENGINE.resolve_options({"sj.preset": name})
        assert {k: resolved[k] for k in values} == values
        assert resolved["sj.illegalPlay"] == "reject" and resolved["sj.kittyMultiplier"] == "doubling"
        assert resolved["sj.kittyBasis"] == "winnerCards" and resolved["sj.trickReview"] == "lastTrickOnly"
        assert not resolved["sj.bigJokerPairOvercall"] and not resolved["sj.mixedJokerNoTrump"]
        assert not resolved["sj.preferShorterTractor"] and not resolved["sj.revokeEndsMatch"]
    mixed = ENGINE.resolve_options({"sj.preset": "s001", "sj.levelTable": "s004"})
    assert mixed["sj.levelTable"] == "s004" and mixed["sj.throwPenalty"] == "none"
    assert ENGINE.resolve_options(mixed) == mixed  # resolving is idempotent: stored options replay as they were


@pytest.mark.parametrize("bad", [{"sj.preset": "s002"}, {"sj.throwPenalty": "perBlockedCard"}, {"sj.nonsense": 1},
                                 {"sj.goalLevel": 20}])
def test_bad_options_are_refused(bad):
    with pytest.raises(IllegalAction) as caught:
        ENGINE.resolve_options(bad)
    assert caught.value.code == "bad_options"


# -- declarations -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("switch", [True, False])
def test_self_overcall_switch_overrides_the_preset(preset, switch):
    state = deal_with({1: ["H10", "D10", "D10"]}, options=both(preset, **{"sj.selfOvercall": switch}))
    declare(state, 1, ["H10"], 1)
    allowed_when(switch, state, {"seat": 1, "type": "declare", "cards": ["D10", "D10"], "received": 3},
                 "self_overcall_not_allowed")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_big_joker_pair_overcall(preset):
    for switch in (False, True):
        state = deal_with({0: ["H10"], 1: ["LJ", "LJ"], 2: ["BJ", "BJ"]},
                          options=both(preset, **{"sj.bigJokerPairOvercall": switch}))
        declare(state, 0, ["H10"], 1)
        declare(state, 1, ["LJ", "LJ"], 2)
        allowed_when(switch, state, {"seat": 2, "type": "declare", "cards": ["BJ", "BJ"], "received": 2},
                     "overcall_too_weak")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_mixed_joker_no_trump(preset):
    for switch in (False, True):
        state = deal_with({0: ["H10"], 1: ["LJ", "BJ"]}, options=both(preset, **{"sj.mixedJokerNoTrump": switch}))
        declare(state, 0, ["H10"], 1)
        allowed_when(switch, state, {"seat": 1, "type": "declare", "cards": ["LJ", "BJ"], "received": 2},
                     "bad_declaration")
        if switch:
            assert state.declarations[-1].suit == "NT"


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize(("card", "joker", "kitty", "trump", "shown"), [
    ("first", "nextCard", ["LJ", "H3", "C4", "D5", "S6", "H7", "C8", "D9"], "H", ["LJ", "H3"]),
    ("first", "noTrump", ["LJ", "H3", "C4", "D5", "S6", "H7", "C8", "D9"], "NT", ["LJ"]),
    ("third", "nextCard", ["H3", "C4", "BJ", "D5", "S6", "H7", "C8", "D9"], "D", ["BJ", "D5"]),
    ("third", "noTrump", ["H3", "C4", "D5", "BJ", "S6", "H7", "C8", "D9"], "D", ["D5"]),
])
def test_kitty_trump_card_and_joker_options(preset, card, joker, kitty, trump, shown):
    state = deal_with({}, kitty=kitty, context={"levels": [3, 4], "dealer": 3},
                      options=both(preset, **{"sj.kittyTrumpCard": card, "sj.kittyJoker": joker}))
    final_round(state)
    assert state.trump == trump and state.kitty_shown == shown
    assert ENGINE.view(state, Viewpoint("public"))["kitty_shown"] == shown


# -- following ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_prefer_shorter_tractor(preset):
    # ♥KKQQJJ led; the follower has the 2-pair tractor ♥8877 and the pairs ♥55 ♥33, but no 3-pair tractor.
    follower = ["H8", "H8", "H7", "H7", "H5", "H5", "H3", "H3"]
    hands = [["HK", "HK", "HQ", "HQ", "HJ", "HJ"], follower, ["D2", "D3", "D4", "D5", "D6", "D7"],
             ["C2", "C3", "C4", "C5", "C6", "C7"]]
    scattered = ["H8", "H8", "H5", "H5", "H3", "H3"]
    for switch in (False, True):
        state = table(hands, leader=0, options=both(preset, **{"sj.preferShorterTractor": switch}))
        play(state, 0, hands[0])
        action = {"seat": 1, "type": "play", "cards": scattered}
        if switch:
            assert refused(state, action) == "must_play_tractor"
            play(state, 1, ["H8", "H8", "H7", "H7", "H3", "H3"])
        else:
            play(state, 1, scattered)


def test_best_disjoint_tractors_on_a_throw_not_a_greedy_choice():
    # §3.14a.4: on ♥AAKK ♥7766 (two 2-pair tractors) the holder of ♥55443322 must present two disjoint tractors.
    lead = ["HA", "HA", "HK", "HK", "H7", "H7", "H6", "H6"]
    follower = ["H5", "H5", "H4", "H4", "H3", "H3", "H2", "H2", "H9"]
    hands = [lead, follower, ["D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"],
             ["C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]]
    state = table(hands, leader=0)
    play(state, 0, lead)
    assert "failed_throw" not in state.trick[0]
    assert refused(state, {"seat": 1, "type": "play", "cards": ["H5", "H5", "H4", "H4", "H3", "H3", "H9", "H2"]}) \
        == "must_play_tractor"
    play(state, 1, ["H5", "H5", "H4", "H4", "H3", "H3", "H2", "H2"])


# -- 抠底 basis ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize(("basis", "factor"), [("winnerCards", 4), ("leadFormat", 2)])
def test_kitty_basis(preset, basis, factor):
    # The dealer team leads ♥A ♥K (a valid two-single throw); an attacker void in ♥ trumps with ♠33.
    hands = [["HA", "HK"], ["S3", "S3"], ["H2", "H4"], ["C3", "C4"]]
    state = table(hands, dealer=0, leader=0, buried=["D5", "D2", "D3", "D4", "D6", "D7", "D8", "D9"],
                  options=both(preset, **{"sj.kittyBasis": basis}))
    for seat in range(4):
        play(state, seat, hands[seat])
    result = ENGINE.result(state)
    assert state.tricks[-1]["winner"] == 1
    assert result["points"]["kitty_multiplier"] == factor and result["points"]["kitty_bonus"] == 5 * factor


# -- throw penalty -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "penalty"), [
    ({"sj.preset": "s004"}, 40), ({"sj.preset": "s001"}, 0),
    ({"sj.preset": "s001", "sj.throwPenalty": "flat10"}, 10), ({"sj.preset": "s004", "sj.throwPenalty": "none"}, 0),
    ({"sj.preset": "s001", "sj.throwPenalty": "perRetractedCard"}, 40),
])
def test_throw_penalty(options, penalty):
    state = table([["H9", "H8", "H8", "H4", "H4"], ["HJ", "C2", "C3", "C4", "C5"], ["C6"] * 5, ["C7"] * 5],
                  dealer=1, leader=0, options=options)
    play(state, 0, ["H9", "H8", "H8", "H4", "H4"])
    assert [p["points"] for p in state.penalties] == ([penalty] if penalty else [])
    assert state.trick[0].get("penalty", 0) == penalty


# -- level table, goal level ------------------------------------------------------------------------------------


def _finish(state: ShengjiState) -> dict[str, Any]:
    for _ in range(4):
        seat = state.to_act
        play(state, seat, list(state.hands[seat]))
    return ENGINE.result(state)


@pytest.mark.parametrize(("preset", "steps", "goal_reached"), [("s001", 1, True), ("s004", 0, False)])
def test_level_table_and_goal_level(preset, steps, goal_reached):
    state = table([["S3"], ["S4"], ["S6"], ["S7"]], dealer=0, options=both(preset))
    state.levels = [2, 4]
    state.captured[1] = 80
    result = _finish(state)
    assert result["level_change"] == {"team": 1, "steps": steps} and result["takeover"]
    assert result["new_levels"] == [2, 4 + steps]
    assert (result["match_winner"] == 1) == goal_reached  # S001 plays to level 5, S004 past 10


def test_passing_ace_wins_the_match_and_the_level_stays_at_ace():
    state = table([["S3"], ["S4"], ["S6"], ["S7"]], dealer=0, level=13, options={"sj.preset": "s001"})
    state.levels = [13, 9]
    result = _finish(state)  # P = 0: the dealer team goes up 3 from K
    assert result["new_levels"] == [14, 9] and result["match_winner"] == 0


# -- enforcement modes and referee records --------------------------------------------------------------------------


def _pair_lead(options: dict[str, Any], dealer: int = 0) -> ShengjiState:
    hands = [["H8", "H8", "D2"], ["H7", "H7", "HA", "H3", "C3"], ["D4", "D5", "D6"], ["H6", "C5", "C6"]]
    state = table(hands, dealer=dealer, leader=0, options=options)
    play(state, 0, ["H8", "H8"])
    return state


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_reject_mode_refuses_irregularity_records(preset):
    state = _pair_lead(both(preset))
    action = {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": ["HA", "H3"]}
    assert refused(state, action) == "irregularity_not_allowed"
    assert refused(state, {"seat": 1, "type": "play", "cards": ["HA", "C3"]}) == "must_follow_suit"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_adjudicate_still_refuses_an_unrecorded_irregular_play(preset):
    state = _pair_lead(both(preset, **{"sj.illegalPlay": "adjudicate"}))
    assert refused(state, {"seat": 1, "type": "play", "cards": ["HA", "H3"]}) == "must_play_pair"
    assert refused(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": ["H7", "H7"]}) \
        == "not_irregular"
    assert refused(state, {"seat": 1, "type": "irregularity", "kind": "revoke", "cards": ["HA", "H3"]}) \
        == "not_a_revoke"
    assert refused(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": ["HA", "C3"]}) \
        == "is_a_revoke"


@pytest.mark.parametrize(("cards", "wrong"), [(["HA", "H3"], 2), (["H7", "HA"], 1)])
def test_wrong_follow_costs_ten_per_wrong_card_and_the_play_stands(cards, wrong):
    state = _pair_lead({"sj.illegalPlay": "adjudicate"})  # seat 1 is an attacker: the penalty lowers P
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": cards})
    assert state.penalties[-1]["points"] == 10 * wrong and state.penalties[-1]["effect"] == -10 * wrong
    assert state.irregularities[-1]["wrong_cards"] == wrong and state.to_act == 2
    assert state.trick[-1]["cards"] == cards


@pytest.mark.parametrize(("preset", "steps"), [("s001", 1), ("s004", 0)])
def test_a_dealer_team_revoke_ends_the_deal_with_the_attackers_taking_over(preset, steps):
    hands = [["H8", "D2"], ["H7", "C3"], ["H6", "D6"], ["H5", "C6"]]
    state = table(hands, dealer=1, leader=0, options=both(preset, **{"sj.illegalPlay": "adjudicate"}))
    play(state, 0, ["H8"])
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "revoke", "cards": ["C3"], "note": "垫了梅花"})
    result = ENGINE.result(state)
    assert state.phase == "finished" and result["ended_by"] == "revoke" and result["offender"] == 1
    assert result["big_points"] == [2, 0] and result["takeover"] and result["next_dealer"] == 2
    assert result["level_change"] == {"team": 0, "steps": steps} and result["match_winner"] is None


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("ends", [True, False])
def test_an_attacker_revoke_lets_the_dealer_team_hold_by_one_and_can_end_the_match(preset, ends):
    hands = [["H8", "D2"], ["H7", "C3"], ["H6", "D6"], ["H5", "C6"]]
    state = table(hands, dealer=0, leader=0, level=9,
                  options=both(preset, **{"sj.illegalPlay": "adjudicate", "sj.revokeEndsMatch": ends}))
    play(state, 0, ["H8"])
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "revoke", "cards": ["C3"]})
    result = ENGINE.result(state)
    assert result["level_change"] == {"team": 0, "steps": 1} and result["big_points"] == [2, 0]
    assert result["next_dealer"] == 2 and result["match_winner"] == (0 if ends else None)


def test_the_attackers_keep_the_big_points_they_had_secured_when_the_dealer_team_revokes():
    hands = [["H8", "D2"], ["H7", "C3"], ["H6", "D6"], ["H5", "C6"]]
    state = table(hands, dealer=0, leader=0, options={"sj.illegalPlay": "adjudicate"})
    state.captured[1] = 130
    play(state, 0, ["H8"])
    play(state, 1, ["H7"])
    ENGINE.apply(state, {"seat": 2, "type": "irregularity", "kind": "revoke", "cards": ["D6"]})
    assert ENGINE.result(state)["big_points"] == [0, 4]


def test_miscount_and_kitty_mishandling():
    state = _pair_lead({"sj.illegalPlay": "adjudicate"})
    ENGINE.apply(state, {"seat": 2, "type": "irregularity", "kind": "miscount", "note": "少一张"})
    result = ENGINE.result(state)
    assert result["ended_by"] == "miscount" and result["winner_team"] == 1 and result["big_points"] == [0, 2]
    state = deal_with({}, context={"levels": [5, 5], "dealer": 2}, options={"sj.illegalPlay": "adjudicate"})
    final_round(state)
    assert refused(state, {"seat": 1, "type": "irregularity", "kind": "kitty_mishandled"}) == "not_dealer"
    ENGINE.apply(state, {"seat": 2, "type": "irregularity", "kind": "kitty_mishandled", "note": "扣了 7 张"})
    result = ENGINE.result(state)
    assert result["attacker_points"] == 80 and result["takeover"] and result["next_dealer"] == 3
    assert result["big_points"] == [0, 2] and result["level_change"] == {"team": 1, "steps": 0}


def test_foul_penalty_sign_follows_the_offenders_side():
    state = _pair_lead({})
    ENGINE.apply(state, {"seat": 1, "type": "foul", "code": "signal", "note": "暗号", "penalty": 20})
    ENGINE.apply(state, {"seat": 2, "type": "foul", "code": "review", "note": "查牌", "penalty": 10})
    assert [p["effect"] for p in state.penalties] == [-20, 10]
    assert len(state.fouls) == 2


# -- timeouts -----------------------------------------------------------------------------------------------------


def test_timeouts_pass_bury_the_kitty_as_taken_and_play_the_lowest_legal_cards():
    state = deal_with({0: ["H10"]}, context={"levels": [10, 10], "dealer": 0})
    declare(state, 0, ["H10"], 1)
    for seat in range(4):
        ENGINE.apply(state, {"seat": seat, "type": "timeout"})
    assert state.phase == "burying"
    ENGINE.apply(state, {"seat": 0, "type": "timeout"})
    assert state.buried == state.kitty and state.phase == "playing"
    state = table([["H8", "H8", "D2"], ["H7", "H7", "H6", "H6", "HA", "H3"], ["D4", "D5", "D6"], ["C2", "S3", "C4"]],
                  leader=0)
    ENGINE.apply(state, {"seat": 0, "type": "timeout"})
    assert state.trick[0]["cards"] == ["D2"]
    state = table([["H8", "H8", "D2"], ["H7", "H7", "H6", "H6", "HA", "H3"], ["D4", "D5", "D6"], ["C2", "S3", "C4"]],
                  leader=0)
    play(state, 0, ["H8", "H8"])
    ENGINE.apply(state, {"seat": 1, "type": "timeout"})
    assert state.trick[1]["cards"] == ["H6", "H6"]


# -- declaration timing ------------------------------------------------------------------------------------------


def test_declarations_must_use_cards_already_received_and_come_in_dealing_order():
    state = deal_with({0: ["C2", "H10"], 3: ["D10", "D10"]}, first=0)
    assert refused(state, {"seat": 0, "type": "declare", "cards": ["H10"], "received": 1}) == "not_yet_received"
    declare(state, 0, ["H10"], 2)  # seat 0's 2nd card is card 5 of the deal
    # Seat 3 with 1 card holds it only until card 8: possible. With 2 cards (cards 8–12): also possible.
    declare(state, 3, ["D10", "D10"], 2)
    assert state.dealt == 8


def test_out_of_order_received_is_refused_but_overlapping_windows_are_accepted():
    state = deal_with({0: ["S2", "S3", "S4", "S5", "H10"], 1: ["C2", "C3", "C10", "C10"], 2: ["D10"]}, first=0)
    declare(state, 0, ["H10"], 5)  # seat 0's 5th card is card 17 of the deal
    # Seat 2 held 1 card only while cards 3–6 were dealt: too early for a record already at card 17.
    assert refused(state, {"seat": 2, "type": "declare", "cards": ["D10"], "received": 1}) == \
        "declaration_out_of_order"
    # Seat 1 holds 4 cards while cards 14–17 are dealt: `received` may go down from 5 to 4.
    declare(state, 1, ["C10", "C10"], 4)
    assert state.dealt == 17


def test_the_round_after_the_last_card_goes_in_turn_from_first():
    state = deal_with({2: ["H10"]}, first=1)
    assert refused(state, {"seat": 0, "type": "pass"}) == "not_your_turn"
    ENGINE.apply(state, {"seat": 1, "type": "pass"})
    choices = ENGINE.legal_actions(state, 2)
    assert choices[0] == {"seat": 2, "type": "pass"} and {"seat": 2, "type": "declare", "cards": ["H10"]} in choices
    assert ENGINE.legal_actions(state, 3) == []
    ENGINE.apply(state, {"seat": 2, "type": "declare", "cards": ["H10"]})
    assert refused(state, {"seat": 3, "type": "declare", "cards": ["H10"], "received": 10}) == "bad_action"
    ENGINE.apply(state, {"seat": 3, "type": "pass"})
    ENGINE.apply(state, {"seat": 0, "type": "pass"})
    assert state.dealer == 2 and state.trump == "H" and state.phase == "burying"


# -- views ----------------------------------------------------------------------------------------------------------


def test_views_hide_what_a_seat_cannot_know():
    state = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 10], "dealer": 0})
    declare(state, 0, ["H10"], 1)
    seat1 = ENGINE.view(state, Viewpoint("seat", 1))
    assert seat1["seats"][1]["hand"] == [] and seat1["seats"][1]["received"] == 0  # only card 1 dealt so far
    assert all("hand" not in s for s in seat1["seats"] if s["seat"] != 1) and seat1["kitty"] is None
    final_round(state)
    dealer_view = ENGINE.view(state, Viewpoint("seat", 0))
    assert dealer_view["kitty"] == state.kitty and len(dealer_view["seats"][0]["hand"]) == 33
    assert ENGINE.view(state, Viewpoint("seat", 2))["kitty"] is None
    assert ENGINE.view(state, Viewpoint("public"))["kitty"] is None
    referee = ENGINE.view(state, Viewpoint("referee"))
    assert all(len(s["hand"]) == (33 if s["seat"] == 0 else 25) for s in referee["seats"])


@pytest.mark.parametrize(("review", "last", "all_tricks"), [("lastTrickOnly", True, False), ("none", False, False),
                                                             ("all", True, True)])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_trick_review(review, last, all_tricks, preset):
    hands = [["S3", "S5"], ["S4", "S6"], ["S7", "S8"], ["S9", "SJ"]]
    state = table(hands, options=both(preset, **{"sj.trickReview": review}))
    for seat in range(4):
        play(state, seat, [hands[seat][0]])
    seen = ENGINE.view(state, Viewpoint("seat", 1))
    assert (seen["last_trick"] is not None) == last and ("tricks" in seen) == all_tricks
    assert "tricks" in ENGINE.view(state, Viewpoint("referee"))


def test_refused_actions_name_a_stable_code_in_both_languages():
    state = _pair_lead({})
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, {"seat": 2, "type": "play", "cards": ["D4", "D5"]})
    assert caught.value.code == "not_your_turn" and caught.value.message and caught.value.message_zh
    for action, code in ((({"seat": 1, "type": "play", "cards": ["H7"]}), "wrong_card_count"),
                         ({"seat": 1, "type": "play", "cards": ["H7", "H7", "H3"]}, "wrong_card_count"),
                         ({"seat": 1, "type": "bury", "cards": ["H7"]}, "play_phase"),
                         ({"seat": 1, "type": "shout"}, "unknown_action"),
                         ({"seat": 4, "type": "pass"}, "bad_seat")):
        assert refused(state, action) == code
