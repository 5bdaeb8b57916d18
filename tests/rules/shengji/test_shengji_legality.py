"""升级's legality rule by rule (docs/rules/shengji.md §3.4–3.8, §3.13, "Engine additions"; docs/record-format.md's
升级 section): what a timeout plays, how a refused follow is worded for the record, leads, throws and their forced
part, tractors, declarations and the kitty, the turn's choices and the views — each asserted from the documents'
words on small hands, never from the engine's own answer (L = 10, trump ♠ unless stated)."""

from __future__ import annotations

from typing import Any

import pytest
from test_shengji_rules import ENGINE, play, table

from domain.kernel.engine import Viewpoint
from domain.kernel.errors import IllegalAction

ENGINE_VIEW_PUBLIC = Viewpoint("public")

# -- timeouts: the lowest card leading, the lowest legal cards following ("Engine additions") -------------------


def timeout(state: Any, seat: int) -> list[str]:
    ENGINE.apply(state, {"seat": seat, "type": "timeout"})
    plays = state.trick or state.tricks[-1]["plays"]
    return sorted(next(p["cards"] for p in plays if p["seat"] == seat))


def test_a_timed_out_lead_is_the_lowest_card_plain_suits_below_trumps():
    # ♥5 is the lowest plain card; ♦9 comes first by its code and ♠2, a trump, by its rank only.
    state = table([["SA", "D9", "H5", "S2"], ["H3"], ["H4"], ["H6"]], leader=0)
    assert timeout(state, 0) == ["H5"]


def test_a_timed_out_follow_of_a_tractor_plays_the_tractor_it_holds():
    # §3.7.2: holding a tractor of the led length, play one; the lowest such is ♥55♥66, not the lower pairs.
    hands = [["HQ", "HQ", "HK", "HK"], ["H2", "H2", "H5", "H5", "H6", "H6", "H9"], ["D4"] * 1, ["D5"]]
    state = table(hands, leader=0)
    play(state, 0, ["HQ", "HQ", "HK", "HK"])
    assert timeout(state, 1) == ["H5", "H5", "H6", "H6"]


def test_a_timed_out_follow_under_prefer_shorter_tractor_plays_its_longest_tractor():
    # A 3-pair tractor led; the follower has only a 2-pair tractor (♥66♥77) and lower pairs: with the switch on
    # it must play that tractor, then the lowest pair (§3.7.2, `sj.preferShorterTractor`).
    hands = [["HQ", "HQ", "HK", "HK", "HA", "HA"],
             ["H2", "H2", "H4", "H4", "H6", "H6", "H7", "H7", "H9"], ["D4"], ["D5"]]
    state = table(hands, leader=0, options={"sj.preferShorterTractor": True})
    play(state, 0, ["HQ", "HQ", "HK", "HK", "HA", "HA"])
    assert timeout(state, 1) == ["H2", "H2", "H6", "H6", "H7", "H7"]
    # Off, pairs are enough: the three lowest pairs.
    state = table(hands, leader=0)
    play(state, 0, ["HQ", "HQ", "HK", "HK", "HA", "HA"])
    assert timeout(state, 1) == ["H2", "H2", "H4", "H4", "H6", "H6"]


def test_a_timed_out_follow_of_a_pair_plays_the_lowest_pair_by_rank():
    # ♥JJ is lower than ♥AA (A > K > … > 2), whatever their codes' spelling.
    state = table([["H8", "H8", "D2"], ["HA", "HA", "HJ", "HJ", "H3"], ["D4"], ["D5"]], leader=0)
    play(state, 0, ["H8", "H8"])
    assert timeout(state, 1) == ["HJ", "HJ"]


# -- tricks: their points, their winner leading the next (§3.1, §3.8) --------------------------------------------


def test_a_trick_counts_its_fives_tens_and_kings_and_its_winner_leads_the_next():
    state = table([["H5", "D2"], ["HK", "D3"], ["H10", "D4"], ["HA", "D5"]], leader=0, level=9)
    for seat, card in ((0, "H5"), (1, "HK"), (2, "H10"), (3, "HA")):
        play(state, seat, [card])
    first = state.tricks[0]
    assert first["leader"] == 0 and first["winner"] == 3 and first["points"] == 25
    assert state.captured == [0, 25] and state.to_act == 3
    for seat, card in ((3, "D5"), (0, "D2"), (1, "D3"), (2, "D4")):
        play(state, seat, [card])
    assert state.tricks[1]["leader"] == 3 and state.tricks[1]["points"] == 5
    view = ENGINE.view(state, ENGINE_VIEW_PUBLIC)
    assert view["last_trick"]["points"] == 5 and view["last_trick"]["leader"] == 3


def test_of_two_equal_off_level_pairs_the_one_played_first_wins():
    # §3.2: the 副级 pairs ♥1010 and ♣1010 are equal trumps; "同等大小的牌以先出者为大".
    state = table([["H10", "H10"], ["C10", "C10"], ["D2", "D3"], ["D4", "D5"]], leader=0)
    for seat, cards in ((0, ["H10", "H10"]), (1, ["C10", "C10"]), (2, ["D2", "D3"]), (3, ["D4", "D5"])):
        play(state, seat, cards)
    assert state.tricks[0]["winner"] == 0


# -- a refused follow, worded for the record (§3.7, §3.13) ------------------------------------------------------


def refusal(state: Any, seat: int, cards: list[str]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, {"seat": seat, "type": "play", "cards": cards})
    return caught.value


FOLLOWS = [
    # (lead, follower's hand, the follow tried, code, §)
    (["H8"], ["H3", "C3"], ["C3"], "must_follow_suit", "§3.7.1"),
    (["H8", "H8", "H9", "H9"], ["H2", "H2", "H3", "H3", "HA", "HK", "C3"], ["H2", "H2", "HA", "HK"],
     "must_play_tractor", "§3.7.2"),
    (["H8", "H8"], ["H7", "H7", "HA", "H3", "C3"], ["HA", "H3"], "must_play_pair", "§3.7.2"),
]


@pytest.mark.parametrize(("lead", "hand", "cards", "code", "section"), FOLLOWS)
@pytest.mark.parametrize("mode", ["reject", "adjudicate"])
def test_a_refused_follow_names_its_obligation_and_under_adjudicate_the_irregularity(lead, hand, cards, code,
                                                                                    section, mode):
    state = table([lead + ["D2"], hand, ["D4", "D5"], ["D6", "D7"]], leader=0, options={"sj.illegalPlay": mode})
    play(state, 0, lead)
    refused_play = refusal(state, 1, cards)
    assert refused_play.code == code and refused_play.details["cards"] == cards
    english, chinese = refused_play.message, refused_play.message_zh
    assert english.startswith("You hold ") and section in english
    assert chinese.startswith("你有首家出的这门牌" if code == "must_follow_suit" else "你在这门有")
    # §3.13: in adjudicate mode the play is still refused, and the referee records it as an irregularity.
    adjudicated = mode == "adjudicate"
    assert ("irregularity" in english) == adjudicated and ("违规" in chinese) == adjudicated
    assert english.endswith(". Under these rules the referee records it as an irregularity (违规)." if adjudicated
                            else ").")
    assert chinese.endswith("记录为违规（irregularity）。" if adjudicated else "。")
    if code == "must_play_tractor":
        assert refused_play.details["tractors"] == [2]
    if code == "must_play_pair":
        assert refused_play.details["pairs"] == 1
