"""大怪路子 rules (docs/rules/daguai.md): every vector D1–D30 of A9, the worked examples of A4, the full scoring table
of A6 (all ten finishing patterns, for either team as 头家), and the settled clarifications of A10.

Card comparisons go straight to `parse` / `beats`. Procedure tests start a real deal (`new_deal` on a complete
162-card deck from a seed) and then, where a test needs a short scenario, replace the hands with the few cards it
plays ("cut" hands): the engine reads only `state.hands`, and full 27-card deals are covered by the property
tests. Seats 0, 2, 4 are team 0 and seats 1, 3, 5 team 1, in play order (counter-clockwise).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from game_support import Scripted

from domain.games.daguai.engine import DaguaiEngine, DaguaiState
from domain.games.daguai.patterns import Pattern, beats, parse
from domain.games.daguai.table import DaguaiTable
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import fold, parse_record
from fixtures.random_play.daguai import random_record

ENGINE = DaguaiEngine()
NAMES = ["甲一", "乙一", "甲二", "乙二", "甲三", "乙三"]
TABLE = DaguaiTable()
refused = Scripted(ENGINE).refused  # a refused action leaves the state exactly as it was


def p(text: str) -> Pattern | None:
    return parse(text.split())


def pat(text: str) -> Pattern:
    found = p(text)
    assert found is not None, text
    return found


def wins(response: str, incumbent: str) -> bool:
    return beats(pat(response), pat(incumbent))


def full_state(first: int = 0, seed: str = "rules") -> DaguaiState:
    hands, kitty = deal_from_seed(seed, ENGINE, first)
    return ENGINE.new_deal(DealSetup("daguai", ENGINE.resolve_options({}), list(NAMES), first, hands, kitty, {}))


def cut_state(hands: dict[int, str], first: int = 0) -> DaguaiState:
    """A real deal whose hands are then cut to the cards each seat needs (every seat holds at least one)."""
    state = full_state(first)
    state.hands = [hands[s].split() for s in range(6)]
    assert all(state.hands)
    return state


def act(state: DaguaiState, seat: int, kind: str, cards: str = "", **extra: Any) -> None:
    action: dict[str, Any] = {"seat": seat, "type": kind, **extra}
    if kind == "play":
        action["cards"] = cards.split()
    ENGINE.apply(state, action)


def passes(state: DaguaiState, *seats: int) -> None:
    for seat in seats:
        act(state, seat, "pass")


# --- A9 card comparisons D1–D21 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("response", "incumbent", "beats_it"), [
    pytest.param("BJ", "LJ", True, id="d01_big_joker_beats_little_joker"),
    pytest.param("BJ", "BJ", False, id="d02_equal_cards_cannot_beat"),
    pytest.param("D2", "SA", True, id="d03_two_is_trump_over_ace"),
    pytest.param("HK", "SK", False, id="d04_suits_do_not_count"),
    pytest.param("SK", "HK", False, id="d04_suits_do_not_count"),
    pytest.param("D9 LJ", "S9 H9", False, id="d05_joker_pair_of_nines_ties_a_natural_pair"),
    pytest.param("C2 LJ", "SA HA", True, id="d06_two_and_joker_is_a_pair_of_twos_over_aces"),
    pytest.param("BJ BJ", "LJ LJ", True, id="d08_big_big_is_the_highest_pair"),
    pytest.param("BJ BJ", "BJ LJ", True, id="d08_big_big_is_the_highest_pair"),
    pytest.param("LJ LJ", "S2 H2", True, id="d09_joker_pair_above_twos"),
    pytest.param("S10 H10 D10", "S9 H9", False, id="d10_different_card_counts_never_compare"),
    pytest.param("S9 H9", "S10 H10 D10", False, id="d10_different_card_counts_never_compare"),
    pytest.param("H2 H5 H8 HJ HK", "S3 H4 D5 C6 S7", True, id="d11_flush_beats_straight"),
    pytest.param("S2 H3 D4 C5 S6", "SA H2 D3 C4 S5", True, id="d12_six_high_straight_beats_a2345"),
    pytest.param("S10 H9 D8 C7 S6", "S5 H4 D3 C2 SA", True, id="d13_seeds_example_109876_over_5432a"),
    pytest.param("SA HA DA CK BJ", "SK HK DK S2 H2", True,
                 id="d15_aaa_k_joker_is_four_aces_plus_king_over_a_full_house"),
    pytest.param("S2 H2 D2 C2 S3", "SA HA DA CA SK", True, id="d16_four_twos_beat_four_aces"),
    pytest.param("S3 H3 D3 C3 S3", "S3 S4 S5 S6 S7", True, id="d17_five_of_a_kind_beats_straight_flush"),
    pytest.param("HA H9 H7 H4 H3", "SA S9 S7 S4 S2", True, id="d18_flush_lexicographic_with_two_lowest"),
    pytest.param("HA HK H9 H5 LJ", "SA SK S9 S5 S3", False, id="d19_joker_in_flush_is_the_suits_two"),
    pytest.param("SA SK S9 S5 S3", "HA HK H9 H5 LJ", True, id="d19_joker_in_flush_is_the_suits_two"),
    pytest.param("S6 H7 D8 C9 S10", "S6 H7 D8 C9 LJ", True, id="d20_joker_completes_the_lowest_straight"),
    pytest.param("S9 H9 D10 C10 BJ", "S8 H8 D8 SA HA", True, id="d21_joker_full_house_takes_the_highest_triple"),
])
def test_a9_comparisons(response: str, incumbent: str, beats_it: bool):
    """Each comparison of the vectors D1–D21 (D7 and D14 below), named by its vector."""
    assert wins(response, incumbent) is beats_it


@pytest.mark.parametrize(("play", "reading"), [
    pytest.param("D9 LJ", Pattern("pair", 2, (9,)), id="d05_joker_pair_of_nines_ties_a_natural_pair"),
    pytest.param("S3 H4 D5 C6 S7", "straight", id="d11_flush_beats_straight"),
    pytest.param("H2 H5 H8 HJ HK", "flush", id="d11_flush_beats_straight"),
    pytest.param("SA H2 D3 C4 S5", Pattern("straight", 5, (5,)), id="d12_six_high_straight_beats_a2345"),
    pytest.param("SA HA DA CK BJ", Pattern("four_one", 5, (14,)),
                 id="d15_aaa_k_joker_is_four_aces_plus_king_over_a_full_house"),
    pytest.param("S3 S4 S5 S6 S7", "straight_flush", id="d17_five_of_a_kind_beats_straight_flush"),
    pytest.param("S3 H3 D3 C3 S3", "five", id="d17_five_of_a_kind_beats_straight_flush"),
    pytest.param("SA S9 S7 S4 S2", (14, 9, 7, 4, 2), id="d18_flush_lexicographic_with_two_lowest"),
    pytest.param("HA HK H9 H5 LJ", Pattern("flush", 5, (14, 13, 9, 5, 2)), id="d19_joker_in_flush_is_the_suits_two"),
    pytest.param("S6 H7 D8 C9 LJ", Pattern("straight", 5, (9,)), id="d20_joker_completes_the_lowest_straight"),
    pytest.param("S9 H9 D10 C10 BJ", Pattern("full_house", 5, (10,)),
                 id="d21_joker_full_house_takes_the_highest_triple"),
])
def test_a9_readings(play: str, reading: Pattern | str | tuple[int, ...]):
    """How the vectors D1–D21 read a play: its whole pattern, its class (a name) or its key (a tuple)."""
    found = pat(play)
    if isinstance(reading, Pattern):
        assert found == reading
    elif isinstance(reading, str):
        assert found.kind == reading
    else:
        assert found.key == reading


def test_d07_big_little_equals_little_little():
    assert pat("BJ LJ").key == pat("LJ LJ").key
    assert not wins("LJ LJ", "BJ LJ") and not wins("BJ LJ", "LJ LJ")


def test_d14_jqka2_is_not_a_straight():
    assert p("SJ HQ DK CA S2") is None
    state = full_state()
    state.hands[0] = ["SJ", "HQ", "DK", "CA", "S2", "S3"]
    refused(state, {"seat": 0, "type": "play", "cards": ["SJ", "HQ", "DK", "CA", "S2"]}, "not_a_pattern")
    assert p("SK HA D2 C3 S4") is None  # no wrap either


# --- A4 worked examples --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("play, expected", [
    ("S6 H7 D8 C9 LJ", Pattern("straight", 5, (9,))),  # 56789, not 6–10
    ("H6 H7 H8 H9 BJ", Pattern("straight_flush", 5, (9,))),
    ("HA H3 H4 H5 LJ", Pattern("straight_flush", 5, (5,))),  # A2345, the lowest
    ("HA HK H9 H5 BJ", Pattern("flush", 5, (14, 13, 9, 5, 2))),
    ("S8 H8 S9 H9 LJ", Pattern("full_house", 5, (9,))),  # 999 + 88
    ("S7 H7 LJ BJ SK", Pattern("four_one", 5, (7,))),  # four-plus-one beats full house
    ("S7 LJ LJ BJ BJ", Pattern("five", 5, (7,))),  # 7 + 4 jokers
    ("SA HA DA SK LJ", Pattern("four_one", 5, (14,))),  # A4 (d): AAAA+K, not AAA+KK
])
def test_a4_worked_examples(play: str, expected: Pattern):
    assert pat(play) == expected


def test_a4e_joker_pairs_and_triples_rank_above_twos():
    assert pat("BJ BJ").key > pat("BJ LJ").key == pat("LJ LJ").key > pat("S2 H2").key > pat("SA HA").key
    assert wins("BJ BJ BJ", "BJ LJ LJ") and not wins("LJ LJ LJ", "BJ BJ LJ") and wins("LJ LJ BJ", "S2 H2 D2")
    assert pat("BJ BJ BJ LJ LJ") == Pattern("five", 5, (16,))
    assert wins("BJ BJ BJ LJ LJ", "S2 H2 D2 C2 S2")


# --- A3 / A10.1–4 patterns -------------------------------------------------------------------------------------


def test_only_one_two_three_and_five_card_plays_exist():
    assert p("S9 H9 D9 C9") is None  # no 4-card play, no bomb
    assert p("S3 H4 D5 C6 S7 H8") is None  # no 6-card straight
    assert p("S3 S3 S4 S4 S5 S5") is None  # no run of pairs
    assert p("S9 H8") is None and p("S9 H9 D8") is None


def test_four_jokers_are_an_illegal_four_card_play():
    assert p("BJ BJ LJ LJ") is None


def test_a_joker_alone_is_a_single_of_its_own_rank():
    assert pat("LJ") == Pattern("single", 1, (16,)) and pat("BJ") == Pattern("single", 1, (17,))
    assert wins("LJ", "S2") and not wins("LJ", "LJ")


def test_joker_only_plays_a10_4():
    assert pat("LJ LJ") == Pattern("pair", 2, (16,)) and pat("BJ BJ") == Pattern("pair", 2, (17,))
    assert pat("BJ BJ LJ") == Pattern("triple", 3, (16,)) and pat("BJ BJ BJ") == Pattern("triple", 3, (17,))
    assert not wins("BJ LJ LJ", "LJ LJ LJ") and not wins("LJ LJ LJ", "BJ LJ LJ")  # LJ-ranked plays tie


def test_little_joker_and_a_two_are_a_pair_of_twos():
    assert pat("LJ S2") == Pattern("pair", 2, (15,))
    assert not wins("LJ S2", "H2 D2") and wins("LJ LJ", "LJ S2")


def test_flush_key_keeps_duplicates_a10_2():
    assert pat("HA HA H9 H9 H3") == Pattern("flush", 5, (14, 14, 9, 9, 3))
    assert wins("HA HA H9 H9 H3", "SA SK SQ SJ S9")  # A A … > A K …
    assert not wins("SA S9 S9 S3 S3", "HA H9 H9 H3 H3")  # identical keys tie


def test_one_suit_jqka2_is_a_flush():
    assert pat("HJ HQ HK HA H2") == Pattern("flush", 5, (14, 13, 12, 11, 2))


def test_full_house_and_four_plus_one_compare_only_the_main_rank_a10_3():
    assert not wins("S8 H8 D8 SK HK", "C8 H8 D8 S3 H3")
    assert not wins("C8 H8 D8 S3 H3", "S8 H8 D8 SK HK")
    assert wins("S9 H9 D9 S3 H3", "S8 H8 D8 SA HA")
    assert not wins("SA HA DA CA SK", "SA HA DA CA S3")
    assert wins("S2 H2 D2 S3 H3", "SA HA DA SK HK")  # triple 2s rank above triple As


def test_five_card_class_hierarchy():
    chain = ["S3 H4 D5 C6 S7", "H2 H5 H8 HJ HK", "S3 H3 D3 S4 H4", "S3 H3 D3 C3 S4", "S3 S4 S5 S6 S7",
             "S3 H3 D3 C3 S3"]
    for low, high in zip(chain, chain[1:], strict=False):
        assert wins(high, low) and not wins(low, high), (high, low)
    assert wins("S3 H4 D5 C6 S7", "SA H2 D3 C4 S5") and not wins("SA H2 D3 C4 S5", "S3 H4 D5 C6 S7")


def test_one_suit_naturals_that_can_make_a_straight_are_a_straight_flush_a10_1():
    assert pat("S10 SJ SQ SK SA") == Pattern("straight_flush", 5, (14,))
    assert pat("SA S2 S3 S4 S5") == Pattern("straight_flush", 5, (5,))
    assert pat("S9 SJ SK SA LJ").kind == "flush"


# --- A6 full scoring table ------------------------------------------------------------------------------------------

A6_TABLE = [  # (finishing teams, A = the 头家's team; seats out when the deal ends; outcome, k; A points)
    ("AAABBB", 3, "catch", 3, 8),
    ("AABABB", 4, "catch", 2, 5),
    ("ABAABB", 4, "catch", 2, 5),
    ("AABBAB", 5, "catch", 1, 3),
    ("ABABAB", 5, "catch", 1, 3),
    ("ABBAAB", 5, "catch", 1, 3),
    ("AABBBA", 5, "caught", 1, 1),
    ("ABABBA", 5, "caught", 1, 1),
    ("ABBABA", 5, "caught", 1, 1),
    ("ABBBAA", 4, "caught", 2, 0),
]


def play_finishing_order(order: list[int], fouls: list[int] = ()) -> DaguaiState:
    """Each seat holds one single, rising with its place in `order`; the next finisher plays, the others pass, so
    the seats go out in exactly that order. The first finisher is the dealer. Before the first play, a foul
    (talking) against each seat of `fouls`."""
    state = cut_state({seat: f"S{3 + place}" for place, seat in enumerate(order)}, first=order[0])
    for seat in fouls:
        act(state, seat, "foul", code="talking", note="说话")
    place = 0
    while state.phase != "finished":
        seat = state.to_act
        if seat == order[place]:
            act(state, seat, "play", f"S{3 + place}")
            place += 1
        else:
            act(state, seat, "pass")
    return state


def seats_for(letters: str, head_team: int) -> list[int]:
    """The seats of a finishing pattern: A letters take the 头家 team's seats in turn, B letters the other's."""
    pools = {"A": [s for s in range(6) if s % 2 == head_team], "B": [s for s in range(6) if s % 2 != head_team]}
    return [pools[letter].pop(0) for letter in letters]


@pytest.mark.parametrize("head_team", [0, 1])
@pytest.mark.parametrize("letters, out, outcome, k, points", A6_TABLE)
def test_a6_finishing_patterns(letters: str, out: int, outcome: str, k: int, points: int, head_team: int):
    order = seats_for(letters, head_team)
    state = play_finishing_order(order)
    result = ENGINE.result(state)
    assert state.finished == order[:out]  # the deal ends with the play that finishes a team's third player
    assert all(state.hands[s] for s in order[out:])
    assert (result["outcome"], result["k"], result["head_team"]) == (outcome, k, head_team)
    team_points = [points if team == head_team else 0 for team in (0, 1)]
    assert result["team_points"] == team_points
    assert result["scores"] == [team_points[s % 2] for s in range(6)]
    assert result["first_finisher"] == order[0] and result["finish_order"] == order[:out]
    assert result["seat_facts"]["first_finisher"] == [int(s % 2 == head_team) for s in range(6)]
    assert result["fouls_by_team"] == [0, 0] and not result["decided_by_fouls"]


# --- A9 scoring and procedure D22–D30 -------------------------------------------------------------------------------


def test_d22_aabab_b_scores_five_and_ends_at_the_fourth_finisher():
    state = play_finishing_order(seats_for("AABABB", 0))
    assert len(state.finished) == 4 and ENGINE.result(state)["team_points"] == [5, 0]


def test_d23_abbbaa_is_caught_two_zero_zero():
    state = play_finishing_order(seats_for("ABBBAA", 0))
    assert ENGINE.result(state)["team_points"] == [0, 0] and len(state.finished) == 4


def test_d24_babab_a_mirror_of_pattern_5():
    state = play_finishing_order(seats_for("ABABAB", 1))  # B (team 1) has the 头家
    assert ENGINE.result(state)["team_points"] == [0, 3]


def test_d25_bbaaab_mirror_of_pattern_7():
    state = play_finishing_order(seats_for("AABBBA", 1))
    assert ENGINE.result(state)["team_points"] == [0, 1]


def test_d26_team_b_second_foul_gives_a_eight():
    order = seats_for("ABBBAA", 1)  # naturally team 1 would score 0 as 头家 … and 0 with its fouls
    state = cut_state({seat: f"S{3 + place}" for place, seat in enumerate(order)}, first=order[0])
    act(state, 3, "foul", code="talking", note="说话")
    act(state, 5, "foul", code="urging", note="催促")
    assert state.phase == "play" and state.to_act == order[0]  # the deal is played to its natural end
    for place, seat in enumerate(order):  # play it out with the fouls standing
        while state.phase != "finished" and state.to_act != seat:
            act(state, state.to_act, "pass")
        if state.phase != "finished":
            act(state, seat, "play", f"S{3 + place}")
    result = ENGINE.result(state)
    assert result["team_points"] == [8, 0] and result["scores"] == [8, 0, 8, 0, 8, 0]
    assert result["fouls_by_team"] == [0, 2] and result["decided_by_fouls"]
    assert result["head_team"] == 1  # 跑头家 credit stays with the actual first finisher's team


def test_d27_four_deal_round_a_six_b_four_a_advances():
    standing = TABLE.start({"dg.tableDeals": 4}, 6)
    for points, head in (([5, 0], 0), ([0, 3], 1), ([0, 1], 1), ([1, 0], 0)):
        assert standing["end"] is None
        standing = TABLE.after_deal(standing, {"dg.tableDeals": 4}, table_result(points, head))
    assert standing["points"] == [6, 4] and standing["first_finishes"] == [2, 2]
    assert standing["end"] == {"winner": 0, "by": "points"}


def test_d28_tied_points_and_first_finishes_play_an_extra_deal():
    standing = TABLE.start({"dg.tableDeals": 4}, 6)
    for points, head in (([3, 0], 0), ([0, 1], 1), ([1, 0], 0), ([0, 3], 1)):
        standing = TABLE.after_deal(standing, {"dg.tableDeals": 4}, table_result(points, head))
    assert standing["points"] == [4, 4] and standing["first_finishes"] == [2, 2]
    assert standing["end"] is None and standing["playoff"]


def test_d29_after_the_last_cards_and_five_passes_the_next_seat_leads():
    state = cut_state({0: "BJ", 1: "S3 S4", 2: "S5 S6", 3: "S7 S8", 4: "S9 S10", 5: "SJ SQ"})
    act(state, 0, "play", "BJ")
    assert state.finished == [0] and state.to_act == 1
    passes(state, 1, 2, 3, 4)
    assert state.to_act == 5 and state.last_seat == 0
    passes(state, 5)
    assert state.to_act == 1 and state.leader == 1 and state.last_pattern is None  # 接风: seat 1, an opponent
    refused(state, {"seat": 1, "type": "pass"}, "must_lead")


def test_d30_a_pass_does_not_lock_a_player_out():
    state = cut_state({0: "S3 S4", 1: "S5 S6", 2: "S7 S8", 3: "H3 H4", 4: "HQ HK", 5: "SA S2"}, first=3)
    act(state, 3, "play", "H3")
    passes(state, 4)
    act(state, 5, "play", "SA")
    passes(state, 0, 1, 2, 3)
    assert state.to_act == 4  # seat 4 passed earlier and may still respond …
    passes(state, 4)
    assert state.to_act == 5 and state.last_pattern is None  # … and when it passes too, seat 5 leads
    act(state, 5, "play", "S2")


# --- A5 / A10.5–6 play procedure -------------------------------------------------------------------------------


def test_the_leader_may_not_pass_but_may_lead_any_pattern():
    state = full_state(first=2)
    assert ENGINE.legal_actions(state, 2) == []
    refused(state, {"seat": 2, "type": "pass"}, "must_lead")
    refused(state, {"seat": 3, "type": "play", "cards": [state.hands[3][0]]}, "not_your_turn")
    act(state, 2, "play", state.hands[2][0])
    assert ENGINE.legal_actions(state, 3) == [{"seat": 3, "type": "pass"}]


def test_round_end_skips_finished_players():
    state = cut_state({0: "S3 S4", 1: "S5", 2: "HA", 3: "S7 S8", 4: "S9 S10", 5: "SJ SQ"})
    act(state, 0, "play", "S3")
    act(state, 1, "play", "S5")  # seat 1 goes out
    act(state, 2, "play", "HA")  # seat 2 goes out
    assert state.finished == [1, 2] and state.to_act == 3
    passes(state, 3, 4, 5)
    assert state.to_act == 0  # seats 1 and 2 are skipped
    passes(state, 0)
    # every active seat other than seat 2 has passed: seat 2 is out, so the next active seat (3) leads
    assert state.to_act == 3 and state.leader == 3 and state.last_pattern is None


def test_round_end_when_the_last_player_is_still_active():
    state = cut_state({0: "S3 S4", 1: "S5 S6", 2: "S7 S8", 3: "S9 S10", 4: "SJ SQ", 5: "SK SA"})
    act(state, 0, "play", "S3")
    passes(state, 1, 2, 3, 4)
    assert state.to_act == 5 and state.last_pattern is not None
    passes(state, 5)
    assert state.to_act == 0 and state.last_pattern is None and len(state.rounds) == 1


def test_jiefeng_goes_to_the_next_active_seat_not_a_teammate():
    state = cut_state({0: "S3 S4", 1: "H5", 2: "BJ", 3: "S7 S8", 4: "S9 S10", 5: "SJ SQ"})
    act(state, 0, "play", "S3")
    act(state, 1, "play", "H5")  # seat 1 out
    act(state, 2, "play", "BJ")  # seat 2 out with an unbeatable card
    passes(state, 3, 4, 5, 0)
    assert state.to_act == 3  # the next active seat counter-clockwise from seat 2, an opponent, not seat 4


def test_timeout_when_following_is_a_pass():
    state = cut_state({0: "S3 S4", 1: "S5 S6", 2: "S7 S8", 3: "S9 S10", 4: "SJ SQ", 5: "SK SA"})
    act(state, 0, "play", "S3")
    act(state, 1, "timeout")
    assert state.to_act == 2 and 1 in state.passed and state.hands[1] == ["S5", "S6"]
    passes(state, 2, 3, 4)
    act(state, 5, "timeout")
    assert state.to_act == 0 and state.last_pattern is None  # timeouts count as passes for the round end


def test_timeout_when_leading_moves_the_lead_on():
    state = cut_state({0: "S3 SA", 1: "S5 S6", 2: "S7 S8", 3: "S9 S10", 4: "SJ SQ", 5: "SK H3"})
    refused(state, {"seat": 1, "type": "timeout"}, "not_your_turn")  # only the seat on turn
    act(state, 0, "timeout")
    assert state.to_act == 1 and state.leader == 1 and state.last_pattern is None
    assert state.hands[0] == ["S3", "SA"]
    refused(state, {"seat": 1, "type": "pass"}, "must_lead")  # seat 1 leads a fresh round
    act(state, 1, "play", "S5")
    passes(state, 2, 3, 4, 5)
    act(state, 0, "play", "SA")  # the seat that timed out plays again later


def test_timeout_when_leading_skips_finished_seats():
    state = cut_state({0: "S3 S4", 1: "BJ", 2: "S7 S8", 3: "S9 S10", 4: "SJ SQ", 5: "SK SA"})
    act(state, 0, "play", "S3")
    act(state, 1, "play", "BJ")
    passes(state, 2, 3, 4, 5, 0)
    assert state.to_act == 2
    act(state, 2, "timeout")
    assert state.to_act == 3


def test_the_deal_ends_right_after_the_play_finishing_a_teams_third_player():
    state = play_finishing_order([0, 2, 4, 1, 3, 5])
    assert state.phase == "finished" and state.to_act is None and state.finished == [0, 2, 4]
    assert ENGINE.status(state) == {"phase": "finished", "to_act": None, "finished": True}
    for action in ({"seat": 1, "type": "pass"}, {"seat": 1, "type": "play", "cards": ["S4"]},
                   {"seat": 1, "type": "timeout"}):
        refused(state, action, "deal_finished")


# --- A7 / A10.7 fouls -------------------------------------------------------------------------------------------------


def fouled_deal(order: list[int], fouls: list[int], *, after: list[int] = ()) -> dict[str, Any]:
    """Play `order` out with a foul against each seat of `fouls` first (and of `after` once it is over)."""
    state = play_finishing_order(order, fouls)
    before = ENGINE.result(state)
    for seat in after:
        act(state, seat, "foul", code="late", note="赛后")
    assert ENGINE.result(state) == before  # after the end a foul changes nothing
    return before


def test_one_foul_per_team_changes_nothing():
    result = fouled_deal([0, 2, 4, 1, 3, 5], [0, 1])
    assert result["team_points"] == [8, 0] and not result["decided_by_fouls"] and result["fouls_by_team"] == [1, 1]


def test_two_fouls_by_different_seats_of_a_side_score_it_caught_three():
    result = fouled_deal([0, 2, 4, 1, 3, 5], [2, 4])  # team 0 would have 抓3 (8) but fouled twice
    assert result["team_points"] == [0, 8] and result["scores"] == [0, 8, 0, 8, 0, 8]
    assert result["head_team"] == 0 and result["seat_facts"]["first_finisher"] == [1, 0, 1, 0, 1, 0]
    assert "penalty" not in str(result)


def test_both_sides_fouling_twice_score_zero():
    result = fouled_deal([1, 0, 3, 2, 5, 4], [0, 1, 2, 3, 4])
    assert result["team_points"] == [0, 0] and result["fouls_by_team"] == [3, 2] and result["head_team"] == 1


def test_a_foul_by_a_finished_seat_still_counts_for_its_team():
    order = [1, 3, 0, 2, 5, 4]
    state = cut_state({seat: f"S{3 + place}" for place, seat in enumerate(order)}, first=1)
    act(state, 1, "play", "S3")
    assert state.finished == [1]
    act(state, 1, "foul", code="talking", note="说话")
    act(state, 5, "foul", code="talking", note="说话")
    assert state.team_fouls == [0, 2] and state.phase == "play" and state.to_act == 2
    place = 1
    while state.phase != "finished":
        if state.to_act == order[place]:
            act(state, state.to_act, "play", f"S{3 + place}")
            place += 1
        else:
            act(state, state.to_act, "pass")
    result = ENGINE.result(state)
    assert result["team_points"] == [8, 0] and result["head_team"] == 1


def test_fouls_after_the_end_change_nothing():
    result = fouled_deal([0, 1, 2, 3, 4, 5], [], after=[0, 2, 4, 1])
    assert result["team_points"] == [3, 0]
    state = play_finishing_order([0, 1, 2, 3, 4, 5])
    act(state, 0, "foul", code="late", note="")
    act(state, 2, "foul", code="late", note="")
    assert state.team_fouls == [0, 0] and len(state.fouls) == 2
    assert ENGINE.result(state)["team_points"] == [3, 0]


def test_fouls_carry_no_penalty_field():
    state = full_state()
    refused(state, {"seat": 1, "type": "foul", "code": "talking", "note": "", "penalty": 2}, "bad_action")
    refused(state, {"seat": 1, "type": "foul", "note": ""}, "bad_action")
    state = play_finishing_order([0, 2, 4, 1, 3, 5])
    refused(state, {"seat": 1, "type": "foul", "code": "late", "note": "", "penalty": 1}, "bad_action")


# --- views, refusals, options ---------------------------------------------------------------------------------------


def test_views_show_only_the_own_hand_and_counts_above_ten_as_not_told():
    state = full_state(first=0)
    state.hands[3] = state.hands[3][:10]
    state.hands[5] = state.hands[5][:11]
    mine = ENGINE.view(state, Viewpoint("seat", 3))
    assert [("hand" in s) for s in mine["seats"]] == [False, False, False, True, False, False]
    assert mine["seats"][3]["hand"] and sorted(mine["seats"][3]["hand"]) == sorted(state.hands[3])
    assert [s["count"] for s in mine["seats"]] == [">10", ">10", ">10", 10, ">10", ">10"]
    public = ENGINE.view(state, Viewpoint("public"))
    assert not any("hand" in s for s in public["seats"])
    assert [s["count"] for s in public["seats"]] == [">10", ">10", ">10", 10, ">10", ">10"]
    referee = ENGINE.view(state, Viewpoint("referee"))
    assert all("hand" in s for s in referee["seats"])
    assert [s["count"] for s in referee["seats"]] == [27, 27, 27, 10, 27, 11]
    assert [s["team"] for s in public["seats"]] == [0, 1, 0, 1, 0, 1]


def test_views_give_finish_places():
    state = play_finishing_order([1, 0, 3, 2, 5, 4])
    view = ENGINE.view(state, Viewpoint("public"))
    assert [s["place"] for s in view["seats"]] == [2, 1, 4, 3, None, 5]
    assert view["finish_order"] == [1, 0, 3, 2, 5] and view["result"]["team_points"] == [0, 3]
    assert [s["count"] for s in view["seats"]] == [0, 0, 0, 0, 1, 0]


@pytest.mark.parametrize("action, code", [
    ({"seat": 0, "type": "play", "cards": ["S3"]}, "card_not_in_hand"),
    ({"seat": 0, "type": "play", "cards": ["H9", "H9", "H9", "H9"]}, "not_a_pattern"),
    ({"seat": 0, "type": "play", "cards": []}, "bad_cards"),
    ({"seat": 0, "type": "pass"}, "must_lead"),
    ({"seat": 1, "type": "pass"}, "not_your_turn"),
    ({"seat": 0, "type": "bid", "value": 1}, "unknown_action"),
    ({"seat": 6, "type": "pass"}, "bad_seat"),
    ({"seat": 0, "type": "foul", "code": "x", "note": "", "penalty": 1}, "bad_action"),
])
def test_refused_actions_leave_the_state_unchanged(action: dict[str, Any], code: str):
    state = cut_state({0: "H9 H9 H9 H9 S4", 1: "S5", 2: "S6", 3: "S7", 4: "S8", 5: "S9"})
    refused(state, action, code)


def test_does_not_beat_is_refused_unchanged():
    state = cut_state({0: "H9 H10", 1: "S5 S6 SK SK", 2: "S6", 3: "S7", 4: "S8", 5: "S9"})
    act(state, 0, "play", "H9")
    refused(state, {"seat": 1, "type": "play", "cards": ["S5"]}, "does_not_beat")
    refused(state, {"seat": 1, "type": "play", "cards": ["SK", "SK"]}, "does_not_beat")  # another size


def test_options_table_deals_four_or_six():
    assert ENGINE.resolve_options({}) == {"dg.tableDeals": 4, "dg.playOutRemaining": False}
    assert ENGINE.resolve_options({"dg.tableDeals": 6})["dg.tableDeals"] == 6
    for bad in (5, 0, True):
        with pytest.raises(IllegalAction) as error:
            ENGINE.resolve_options({"dg.tableDeals": bad})
        assert error.value.code == "bad_options"


def test_a_deal_is_checked_complete():
    hands, kitty = deal_from_seed("x", ENGINE, 0)
    hands[0][0], hands[1][0] = hands[1][0], hands[1][0]
    with pytest.raises(IllegalAction):
        ENGINE.new_deal(DealSetup("daguai", {}, list(NAMES), 0, hands, kitty, {}))
    hands, kitty = deal_from_seed("x", ENGINE, 0)
    assert kitty == [] and [len(h) for h in hands] == [27] * 6
    with pytest.raises(IllegalAction):
        ENGINE.new_deal(DealSetup("daguai", {}, list(NAMES), 0, hands[:5] + [hands[5][:26]], [hands[5][26]], {}))


# --- DaguaiTable (A8, A10.9–10) ------------------------------------------------------------------------------------


def table_result(points: list[int], head_team: int, fouls: list[int] = (0, 0)) -> dict[str, Any]:
    return {"scores": [points[s % 2] for s in range(6)], "team_points": list(points), "head_team": head_team,
            "fouls_by_team": list(fouls)}


def test_table_dealer_rotates_one_seat_per_deal():
    standing = TABLE.start({}, 6)
    for first in range(6):
        assert [TABLE.first_seat(standing, first, number, 6) for number in range(1, 8)] == [
            (first + k) % 6 for k in range(7)]
    assert TABLE.side_seats(0, 6) == [0, 2, 4] and TABLE.side_seats(1, 6) == [1, 3, 5]


@pytest.mark.parametrize("deals", [4, 6])
def test_table_ends_by_points_after_its_deals(deals: int):
    options = {"dg.tableDeals": deals}
    standing = TABLE.start(options, 6)
    for n in range(deals):
        assert standing["end"] is None
        standing = TABLE.after_deal(standing, options, table_result([0, 3] if n == 0 else [1, 0], n % 2))
    assert standing["deals"] == deals and standing["points"] == [deals - 1, 3]
    if deals == 6:
        assert standing["end"] == {"winner": 0, "by": "points"}
    else:  # 3 : 3 points and 2 : 2 first finishes after 4 deals
        assert standing["first_finishes"] == [2, 2] and standing["playoff"] and standing["end"] is None


def test_table_ends_by_first_finishes_on_equal_points():
    options = {"dg.tableDeals": 4}
    standing = TABLE.start(options, 6)
    for points, head in (([5, 0], 0), ([0, 0], 1), ([0, 5], 1), ([0, 0], 1)):  # 被关2家: 0 points, still 头家
        standing = TABLE.after_deal(standing, options, table_result(points, head))
    assert standing["points"] == [5, 5] and standing["first_finishes"] == [1, 3]
    assert standing["end"] == {"winner": 1, "by": "first_finishes"}


def tied_standing() -> dict[str, Any]:
    standing = TABLE.start({}, 6)
    for points, head in (([3, 0], 0), ([0, 3], 1), ([1, 0], 0), ([0, 1], 1)):
        standing = TABLE.after_deal(standing, {}, table_result(points, head))
    assert standing["playoff"] and standing["end"] is None
    return standing


def test_playoff_deal_won_by_the_first_finishers_team():
    standing = TABLE.after_deal(tied_standing(), {}, table_result([0, 0], 1))  # 头家 team caught two: still wins
    assert standing["end"] == {"winner": 1, "by": "playoff"} and standing["deals"] == 5


def test_playoff_deal_won_by_the_other_side_when_one_side_fouled_twice():
    standing = TABLE.after_deal(tied_standing(), {}, table_result([0, 8], 0, [2, 0]))
    assert standing["end"] == {"winner": 1, "by": "playoff"}
    standing = TABLE.after_deal(tied_standing(), {}, table_result([8, 0], 0, [1, 3]))
    assert standing["end"] == {"winner": 0, "by": "playoff"}


def test_another_playoff_when_both_sides_fouled_twice():
    standing = TABLE.after_deal(tied_standing(), {}, table_result([0, 0], 0, [2, 2]))
    assert standing["end"] is None and standing["playoff"]
    standing = TABLE.after_deal(standing, {}, table_result([5, 0], 0))
    assert standing["end"] == {"winner": 0, "by": "playoff"} and standing["deals"] == 6


def test_the_engine_result_feeds_the_table():
    standing = TABLE.start({}, 6)
    for order in ([0, 2, 4, 1, 3, 5], [1, 0, 3, 5, 2, 4], [0, 1, 3, 5, 2, 4], [3, 0, 2, 4, 1, 5]):
        standing = TABLE.after_deal(standing, {}, ENGINE.result(play_finishing_order(order)))
    assert standing["points"] == [8, 5] and standing["first_finishes"] == [2, 2]  # 抓3, 抓2, 被关2, 被关2
    assert standing["end"] == {"winner": 0, "by": "points"}


def test_play_out_remaining_plays_on_for_the_record_and_scores_the_deciding_moment():
    """Part C row 3: with `dg.playOutRemaining` the others play on after a team is out, to the last player; the
    score is still the one fixed when the team went out (A6), as the default rules give it by stopping there."""
    rng = random.Random(11)
    played_on = 0
    for _ in range(6):
        record = random_record(rng, {"dg.playOutRemaining": True}, foul_rate=0, timeout_rate=0)
        setup, actions, _ = parse_record(record)
        engine, state = fold(setup, actions)
        result = engine.result(state)
        assert result is not None and len(result["finish_order"]) == 5  # the sixth holds the last cards
        deciding = result["deciding_order"]
        assert result["finish_order"][:len(deciding)] == deciding
        short = engine.new_deal(dataclasses.replace(setup, options=engine.resolve_options({})))
        applied = 0
        while short.phase != "finished":
            engine.apply(short, actions[applied])
            applied += 1
        assert short.finished == deciding and (applied < len(actions)) == (len(deciding) < 5)  # it stops there
        assert engine.result(short)["scores"] == result["scores"]
        played_on += len(deciding) < 5
    assert played_on  # some deal went on past the deciding play


# S000 犯规(一)–(三) name eight fouls (A7): the pad offers each by its own name, and each counts for its side.
SEED_FOULS = {"count_volunteered": "自动报牌", "count_asked": "不在自己回合询问张数", "count_word": "报牌量词不用“张”",
              "talking": "说话", "pass_spoken": "说“不要”而非敲台子", "urging": "催促出牌", "peeking": "偷看他人牌",
              "gesture": "暗示动作"}


def test_the_eight_fouls_of_the_seed_are_offered_by_name():
    offered = {code: zh for code, zh, _ in ENGINE.foul_codes}
    assert {code: offered.get(code) for code in SEED_FOULS} == SEED_FOULS
    assert list(offered)[-1] == "other"


@pytest.mark.parametrize("code", ["count_volunteered", "count_word", "pass_spoken"])
def test_each_seed_foul_counts_toward_the_side_s_second_foul(code):
    state = cut_state({seat: f"S{3 + place}" for place, seat in enumerate([0, 2, 4, 1, 3, 5])}, first=0)
    act(state, 1, "foul", code=code, note="")
    act(state, 3, "foul", code=code, note="")
    assert state.team_fouls == [0, 2]


def test_the_view_names_each_plays_pattern_as_the_viewer_reads_it():
    """The replay viewer (replay_ui/shared/static/fupan.js `currentRound`, daguai/script.js) shows the round's leader
    and each play with its pattern's name in both languages (A4: a pair, 对子)."""
    state = cut_state({s: "S3 H3 S4" if s == 0 else "S5" for s in range(6)}, first=0)
    act(state, 0, "play", "S3 H3")
    view = ENGINE.view(state, Viewpoint("public"))
    (shown,) = view["round"]["plays"]
    assert view["round"]["leader"] == 0 and shown["seat"] == 0
    assert set(shown["pattern"]) == {"kind", "size", "key", "zh", "en"}
    assert {k: shown["pattern"][k] for k in ("kind", "size", "zh", "en")} == {
        "kind": "pair", "size": 2, "zh": "对子", "en": "pair"}


@pytest.mark.parametrize(("play", "kind", "key"), [
    ("S5 H5 C5", "triple", (5,)), ("S5 H5 LJ", "triple", (5,)),
    ("SA H2 S3 H4 LJ", "straight", (5,)),  # A2345, the lowest straight: the joker is the 5
    ("S5 H5 C5 D5 S9", "four_one", (5,)), ("S5 H5 C5 LJ S9", "four_one", (5,)), ("S5 H5 C5 S9 H9", "full_house", (5,)),
    ("S9 H9 S5 H5 LJ", "full_house", (9,)),
])
def test_a4_readings_with_and_without_jokers(play: str, kind: str, key: tuple[int, ...]):
    """A4: a joker (怪) stands for any card — in 三张, 四带一 and 三带二 for the highest rank that fits (8 8 9 9 + 怪
    is 999 + 88), in a straight as the smaller card (A2345 is the lowest straight)."""
    assert (pat(play).kind, pat(play).key) == (kind, key)


# --- what a view shows and what the turn offers (A5, A7, A10.5–10.6) ---------------------------------------------


def test_the_view_follows_a_round_its_leader_each_play_and_pass_and_the_next_round():
    """A5: the first seat leads; every play and pass is public and a round ends when every other active seat has
    passed, its last player leading the next (A10.5); only the seat to act while following may pass."""
    state = cut_state({s: "S3 H3 S4" if s == 0 else "S5 H5 S6 S10" for s in range(6)}, first=0)
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["first"] == 0 and view["viewpoint"] == "public" and view["round"] == {"leader": 0, "plays": []}
    assert [(s["seat"], s["name"], s["played"]) for s in view["seats"]] == [(s, NAMES[s], []) for s in range(6)]
    referee = ENGINE.view(state, Viewpoint("referee"))
    assert [c[1:] for c in referee["seats"][1]["hand"]] == ["10", "6", "5", "5"]  # highest first (A2's order)
    act(state, 0, "play", "S3 H3")
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}] and ENGINE.legal_actions(state, 2) == []
    act(state, 1, "play", "S5 H5")
    passes(state, 2, 3, 4, 5, 0)
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["rounds_played"] == 1 and view["round"] == {"leader": 1, "plays": []}
    assert [(p["seat"], p["type"], p.get("cards")) for p in view["last_round"]] == [
        (0, "play", ["S3", "H3"]), (1, "play", ["S5", "H5"])] + [(s, "pass", None) for s in (2, 3, 4, 5, 0)]
    assert view["seats"][1]["played"] == ["S5", "H5"]
    act(state, 1, "play", "S6")
    passes(state, 2)
    act(state, 3, "play", "S10")
    assert ENGINE.view(state, Viewpoint("public"))["round"]["leader"] == 1  # a follow does not take the lead


def test_a_leaders_timeout_closes_the_round_and_the_next_seat_leads():
    """A10.6: a leader who lets the time run out gives up the lead ("放弃出牌权利"); the next active seat leads."""
    state = cut_state({s: "S3 H3 S4" if s == 0 else "S5 H5 S6" for s in range(6)}, first=0)
    act(state, 0, "timeout")
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["last_round"] == [{"seat": 0, "type": "timeout"}] and view["rounds_played"] == 1
    assert view["round"] == {"leader": 1, "plays": []} and view["to_act"] == 1


def test_fouls_are_announced_and_counted_by_team():
    """A7, A10.7: a foul is recorded against its seat and counted for its team."""
    state = cut_state({s: "S3 H3 S4" if s == 0 else "S5 H5 S6" for s in range(6)}, first=0)
    code = ENGINE.foul_codes[0][0]
    act(state, 2, "foul", code=code, note="x")
    act(state, 3, "foul", code=code, note="y")
    act(state, 4, "foul", code=code, note="z")
    view = ENGINE.view(state, Viewpoint("public"))
    assert [(f["seat"], f["code"]) for f in view["fouls"]] == [(2, code), (3, code), (4, code)]
    assert view["fouls_by_team"] == [2, 1]


def test_a_refused_play_names_its_cards_and_whose_hand():
    state = cut_state({s: "S3 H3 S4" if s == 0 else "S5 H5 S6" for s in range(6)}, first=0)
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "play", "S9")
    assert error.value.code == "card_not_in_hand" and error.value.details["seat"] == 0
    with pytest.raises(IllegalAction) as error:
        act(state, 0, "play", "S3 S4")
    assert error.value.code == "not_a_pattern" and "S3" not in error.value.message
    assert any(suit in error.value.message for suit in "♠♥♣♦")
    act(state, 0, "play", "S4")
    with pytest.raises(IllegalAction) as error:
        act(state, 1, "play", "S5 H5")
    assert error.value.code == "does_not_beat" and "S5" not in error.value.message_zh
    assert any(suit in error.value.message_zh for suit in "♠♥♣♦")


def test_the_turn_skips_every_seat_that_is_out_however_many():
    """A5.2, A5.4: counter-clockwise, seats without cards are skipped — past every seat that went out, here four
    in a row, two of each team, so no team is out yet."""
    state = cut_state({1: "S3", 2: "S4", 3: "S5", 4: "S6", 5: "S7 S8", 0: "S9 S10"}, first=1)
    for seat, card in ((1, "S3"), (2, "S4"), (3, "S5"), (4, "S6"), (5, "S7")):
        act(state, seat, "play", card)
    assert state.finished == [1, 2, 3, 4] and state.to_act == 0
    act(state, 0, "play", "S9")
    assert state.to_act == 5 and state.phase == "play"
