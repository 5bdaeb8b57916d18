"""斗地主 rules: every vector of docs/rules/doudizhu.md §2.8, the clarifications of §2.7a, the options of §2.4–2.5."""

from __future__ import annotations

import copy
import re

import pytest
from conftest import EXAMPLE_RECORD, move

from domain.games.doudizhu.engine import DoudizhuEngine
from domain.games.doudizhu.patterns import answers, lead_reading, parses
from domain.kernel.engine import DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import check_record, public_result

ENGINE = DoudizhuEngine()

# A fixed legal deal (the `fupan.deal/1` example record of conftest): seat 0 holds both jokers, seat 1 the 2s.
HANDS = [
    ["D3", "C3", "H4", "H6", "C6", "S7", "S9", "D9", "C9", "C10", "HJ", "CQ", "HK", "DK", "HA", "LJ", "BJ"],
    ["H3", "D5", "S6", "D8", "D10", "SJ", "DJ", "CJ", "SQ", "HQ", "DQ", "SK", "SA", "DA", "S2", "H2", "D2"],
    ["S3", "S4", "D4", "C4", "S5", "H5", "C5", "D6", "H7", "D7", "C7", "H8", "C8", "S10", "H10", "CK", "CA"],
]
KITTY = ["S8", "H9", "C2"]


def cards(text: str) -> list[str]:
    """'4445' → four cards of those ranks in varying suits (suits never matter in 斗地主)."""
    out, suits = [], "SHCD"
    seen: dict[str, int] = {}
    for rank in re.findall(r"10|BJ|LJ|[2-9JQKA]", text):
        if rank in ("BJ", "LJ"):
            out.append(rank)
            continue
        n = seen.get(rank, 0)
        seen[rank] = n + 1
        out.append(suits[n] + rank)
    return out


def beats(play: str, previous: str) -> bool:
    found, last = parses(cards(play)), parses(cards(previous))
    assert found and last, (play, previous)
    return bool(answers(found, last))


def new_state(first: int = 0, options: dict | None = None):
    return ENGINE.new_deal(DealSetup("doudizhu", options or {}, ["A", "B", "C"], first, HANDS, KITTY))


def run(state, *actions: tuple) -> None:
    for seat, kind, *rest in actions:
        action = {"seat": seat, "type": kind}
        if rest:
            action.update(rest[0])
        ENGINE.apply(state, action)


# -- §2.8 vectors ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("play", "previous", "beats_it"), [
    pytest.param("4445", "3339", True, id="v1_trio_with_single_and_sizes"),
    pytest.param("44455", "3339", False, id="v1_trio_with_single_and_sizes"),  # 5 cards vs 4
    pytest.param("45678", "34567", True, id="v2_straights"),
    pytest.param("345678", "34567", False, id="v2_straights"),
    pytest.param("3333", "22", True, id="v3_bombs_and_rocket"),
    pytest.param("3333", "AAAAKQ", True, id="v3_bombs_and_rocket"),
    pytest.param("BJLJ", "2222", True, id="v3_bombs_and_rocket"),
    pytest.param("2222", "3333", True, id="v3_bombs_and_rocket"),
    pytest.param("3333", "2222", False, id="v3_bombs_and_rocket"),
    pytest.param("2222", "BJLJ", False, id="v3_bombs_and_rocket"),
    pytest.param("666678", "555534", True, id="v4_four_with_two"),
    pytest.param("66667788", "555534", False, id="v4_four_with_two"),  # 8 cards vs 6
    pytest.param("44455578", "33344456", True, id="v5_airplanes"),
    pytest.param("4445557788", "33344456", False, id="v5_airplanes"),
])
def test_v1_to_v5_comparisons(play: str, previous: str, beats_it: bool):
    """Each comparison of the §2.8 vectors V1–V5, named by its vector."""
    assert beats(play, previous) is beats_it


@pytest.mark.parametrize(("play", "kinds"), [
    pytest.param("10JQKA", ["straight"], id="v2_straights"),
    pytest.param("JQKA2", [], id="v2_straights"),
    pytest.param("AAAAKQ", ["four_two_single"], id="v3_bombs_and_rocket"),  # 四带二 is not a bomb
])
def test_v2_v3_readings(play: str, kinds: list[str]):
    assert [p.kind for p in parses(cards(play))] == kinds


def test_v6_caller_counter_robs():
    state = new_state(0)
    run(state, (0, "call"), (1, "rob"), (2, "pass"), (0, "rob"))
    assert state.landlord == 0
    assert ENGINE.multipliers(state)["rob"] == 4


def test_v7_no_rob_after_pass_and_no_counter_rob_without_a_rob():
    state = new_state(0)
    run(state, (0, "pass"), (1, "call"), (2, "pass"))
    assert state.landlord == 1 and ENGINE.multipliers(state)["rob"] == 1
    state = new_state(0)
    run(state, (0, "pass"), (1, "call"))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "rob"})
    assert error.value.code == "not_your_turn"  # seat 0 said 不叫: it is not in the rob round at all


def test_v8_last_robber_wins():
    state = new_state(0)
    run(state, (0, "call"), (1, "rob"), (2, "rob"), (0, "pass"))
    assert state.landlord == 2 and ENGINE.multipliers(state)["rob"] == 4


def test_v9_all_pass_redeal_or_first_revealer():
    state = new_state(0)
    run(state, (0, "pass"), (1, "pass"), (2, "pass"))
    assert public_result(ENGINE.result(state)) == {"redeal": True, "scores": [0, 0, 0]}
    state = new_state(0)
    run(state, (1, "reveal", {"stage": "start"}))
    assert state.to_act == 1  # B bids first
    run(state, (1, "pass"), (2, "pass"), (0, "pass"))
    assert state.landlord == 1 and state.phase == "play"
    assert ENGINE.multipliers(state)["reveal"] == 5


def test_a_redeals_scores_are_its_fouls_penalties():
    """docs/record-format.md: a foul's penalty comes off the offender's score of the deal, a redeal's included;
    a redeal's result is `{"redeal": true, "scores", "penalties"}`."""
    state = new_state(0)
    run(state, (0, "pass"), (1, "foul", {"code": "talking", "penalty": 2}), (1, "pass"), (2, "pass"))
    assert ENGINE.result(state) == {"redeal": True, "scores": [0, -2, 0], "penalties": [0, -2, 0]}


def test_v10_reveal_factor_is_the_maximum():
    state = new_state(2)
    run(state, (2, "reveal", {"stage": "start"}), (2, "pass"), (0, "call"), (1, "pass"))
    assert state.landlord == 0
    run(state, (0, "reveal", {"stage": "after_kitty"}))
    assert ENGINE.multipliers(state)["reveal"] == 5


def hand_made(first: int, hands: list[str], kitty: str, actions: list[dict], options: dict | None = None) -> dict:
    """A hand-made record at seats A, B, C; hands and kitty as codes separated by spaces."""
    return {"format": "fupan.deal/1", "game": "doudizhu", "options": options or {}, "seats": ["A", "B", "C"],
            "first": first, "hands": [hand.split() for hand in hands], "kitty": kitty.split(), "context": {},
            "actions": actions}


def _anti_spring_deal() -> dict:
    """Seat 2 is landlord, leads once; seat 0 then takes every round and goes out (反春天)."""
    return hand_made(2, ["S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA S2 H2 D2 C2 BJ",
                         "H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA C3 C4 C5 C6 C7",
                         "D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA C8 C9 C10 CJ CQ"], "CK CA LJ", [
        move(2, "call"), move(0, "pass"), move(1, "pass"), move(2, "play", "D3"), move(0, "play", "S2 H2 D2 C2"),
        move(1, "pass"), move(2, "pass"), move(0, "play", "S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA"),
        move(1, "pass"), move(2, "pass"), move(0, "play", "BJ")])


def test_v11_anti_spring():
    record = _anti_spring_deal()
    record["options"] = {"ddz.payout": "zeroSum21"}
    # One bomb (×2) and 反春天 (×2): M = 4 → landlord −8, farmers +4 under zeroSum21.
    assert check_record(record) == {"ok": True, "result": {"scores": [4, 4, -8]}}
    # Without the bomb the vector's own figures hold: M = 2, landlord −6, farmers +2 each (literal31).
    record = _anti_spring_deal()
    record["actions"][4:] = [
        move(0, "play", "S2"), move(1, "pass"), move(2, "pass"), move(0, "play", "H2 D2 C2"), move(1, "pass"),
        move(2, "pass"), move(0, "play", "S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA"), move(1, "pass"), move(2, "pass"),
        move(0, "play", "BJ")]
    assert check_record(record) == {"ok": True, "result": {"scores": [2, 2, -6]}}


def test_v12_table_ends_at_20_chips():
    from domain.games.doudizhu.table import table_winner

    assert table_winner([21, 5, 4], [10, 10, 10], "hold20") == 0
    assert table_winner([19, 6, 5], [10, 10, 10], "hold20") is None
    assert table_winner([20, 20, -10], [10, 10, 10], "hold20") is None  # equal → extra deals
    assert table_winner([25, 22, 3], [10, 10, 10], "hold20") == 0
    assert table_winner([29, 5, 4], [10, 10, 10], "net20") is None
    assert table_winner([30, 5, 4], [10, 10, 10], "net20") == 0


# -- the example record and `fupan check` ---------------------------------------------------------------------


def example_record() -> dict:
    """The complete 斗地主 example record of `fupan.deal/1` (EXAMPLE_RECORD in conftest)."""
    return copy.deepcopy(EXAMPLE_RECORD)


def test_record_format_example_scores():
    assert check_record(example_record()) == {"ok": True, "result": {"scores": [2, 2, -6]}}


@pytest.mark.parametrize(
    ("index", "change", "code"),
    [
        (0, {"seat": 1, "type": "call"}, "not_your_turn"),
        (3, {"seat": 2, "type": "pass"}, "must_lead"),
        (4, {"seat": 0, "type": "play", "cards": ["S7"]}, "does_not_beat"),
        (4, {"seat": 0, "type": "play", "cards": ["S2"]}, "card_not_in_hand"),
        (4, {"seat": 0, "type": "play", "cards": ["S7", "S9"]}, "not_a_pattern"),
        (4, {"seat": 0, "type": "play", "cards": ["X9"]}, "unknown_card"),
        (1, {"seat": 0, "type": "call"}, "bad_bid"),
        (5, {"seat": 1, "type": "dance"}, "unknown_action"),
    ],
)
def test_check_names_the_first_bad_action(index, change, code):
    record = example_record()
    record["actions"][index] = change
    report = check_record(record)
    assert report["ok"] is False and report["action"] == index and report["code"] == code


def test_check_rejects_bad_records_without_an_action_index():
    record = example_record()
    record["actions"] = record["actions"][:-1]
    assert check_record(record)["code"] == "incomplete" and "action" not in check_record(record)
    record = example_record()
    record["result"] = {"scores": [6, -3, -3]}
    assert check_record(record)["code"] == "result_mismatch"
    record = example_record()
    record["kitty"] = ["S8", "H9", "H9"]
    assert check_record(record)["code"] == "bad_deck"
    record = example_record()
    record["options"] = {"ddz.payout": "triple"}
    assert check_record(record)["code"] == "bad_options"
    assert check_record([])["code"] == "bad_record"
    for first in (True, 3, -1, 1.0):  # `true` is not seat 1
        assert check_record({**example_record(), "first": first})["code"] in ("bad_setup", "bad_record")


def test_action_after_the_end_is_refused():
    record = example_record()
    record["actions"].append({"seat": 2, "type": "pass"})
    report = check_record(record)
    assert report["action"] == len(record["actions"]) - 1 and report["code"] == "deal_finished"


def test_a_foul_may_be_recorded_after_the_last_card_without_changing_the_result():
    """docs/record-format.md: a foul "may occur at any point". After the end it carries no penalty: the result is
    final (a penalty then is an adjustment of the standings)."""
    record = example_record()
    record["actions"].append({"seat": 0, "type": "foul", "code": "conduct", "note": "终局后摔牌"})
    assert check_record(record) == {"ok": True, "result": {"scores": [2, 2, -6]}}
    record["actions"].append({"seat": 1, "type": "foul", "code": "conduct", "note": "罚一张", "penalty": 1})
    report = check_record(record)
    assert (report["action"], report["code"]) == (len(record["actions"]) - 1, "penalty_after_end")


# -- patterns and constraints of §2.2 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "kind"),
    [
        ("BJLJ", "rocket"), ("7777", "bomb"), ("5", "single"), ("55", "pair"), ("JJJ", "trio"),
        ("3336", "trio_single"), ("44499", "trio_pair"), ("78910JQK", "straight"), ("334455", "pair_run"),
        ("7788991010JJ", "pair_run"), ("333444", "trio_run"), ("44455579", "plane_single"),
        ("3334445557799JJ", "plane_pair"), ("555538", "four_two_single"), ("44445577", "four_two_pair"),
    ],
)
def test_every_pattern_of_seed_001(play, kind):
    assert kind in {p.kind for p in parses(cards(play))}


@pytest.mark.parametrize(
    "play",
    ["BJLJ5", "2345", "3456", "KA2345", "QQKKAA22", "3344", "3334445LJBJ", "44445555", "4444BJLJ", "3334445555",
     "AA22", "JJJQQQKKKAAA222", "333444555666777888999"],
)
def test_not_patterns(play):
    assert parses(cards(play.replace("+", ""))) == [], play


def test_wing_constraints():
    assert parses(cards("3334445555")) == []  # a 4th card of a body rank is a wing of a body rank
    assert parses(cards("44455566")) != []  # two single wings may share a rank [REC: only the rocket is barred]
    assert parses(cards("333444BJLJ")) == []  # single wings may not be the rocket
    assert parses(cards("3333BJLJ")) == []  # 四带二 singles may not be the rocket
    assert parses(cards("4445553366")) != []  # pair wings need not be consecutive
    assert parses(cards("44445566")) != [] and parses(cards("44445555")) == []


def test_ambiguous_set_beats_by_any_reading():
    # 333444555666: a 三顺 of four (top 6) or an airplane 444555666 + 3,3,3 (top 6).
    kinds = {(p.kind, p.key) for p in parses(cards("333444555666"))}
    assert ("trio_run", 6) in kinds and ("plane_single", 6) in kinds
    assert beats("777888999TTT".replace("T", "10"), "333444555666")


def test_straight_range():
    assert [p.size for p in parses(cards("345678910JQKA"))] == [12]
    assert [p.kind for p in parses(cards("22"))] == ["pair"]


# -- bidding, turn order and 明牌 (§2.3, §2.7a) ----------------------------------------------------------------


def test_third_caller_has_no_rob_round():
    state = new_state(0)
    run(state, (0, "pass"), (1, "pass"), (2, "call"))
    assert state.landlord == 2 and state.phase == "play"


def test_caller_counter_rob_comes_after_every_candidate():
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"))
    assert state.to_act == 2
    run(state, (2, "rob"))
    assert state.to_act == 0
    run(state, (0, "pass"))
    assert state.landlord == 2 and ENGINE.multipliers(state)["rob"] == 2


def test_rob_after_pass_refused_and_call_in_rob_round_refused():
    state = new_state(0)
    run(state, (0, "call"))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "call"})
    assert error.value.code == "bad_bid"


def test_reveal_stages_and_factors():
    state = new_state(0)
    run(state, (1, "reveal", {"stage": "deal", "received": 5}))
    assert state.first == 1 and ENGINE.multipliers(state)["reveal"] == 4
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 2, "type": "reveal", "stage": "start"})
    assert error.value.code == "reveal_order"
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 2, "type": "reveal", "stage": "deal", "received": 3})
    assert error.value.code == "reveal_order"
    run(state, (2, "reveal", {"stage": "deal", "received": 13}))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "reveal", "stage": "deal", "received": 15})
    assert error.value.code == "already_revealed"
    run(state, (1, "call"), (2, "pass"))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "reveal", "stage": "deal", "received": 17})
    assert error.value.code == "reveal_too_late"
    assert ENGINE.multipliers(state)["reveal"] == 4


def test_after_kitty_reveal_only_landlord_before_first_play():
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"), (2, "pass"))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, {"seat": 1, "type": "reveal", "stage": "after_kitty"})
    run(state, (0, "play", {"cards": ["D3"]}))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "reveal", "stage": "after_kitty"})
    assert error.value.code == "reveal_not_allowed"


def test_refused_action_leaves_state_untouched():
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"), (2, "pass"))
    before = ENGINE.view(state, Viewpoint("referee"))
    for bad in ({"seat": 0, "type": "play", "cards": ["D3", "S2"]}, {"seat": 1, "type": "play", "cards": ["H3"]},
                {"seat": 0, "type": "pass"}, {"seat": 0, "type": "play", "cards": ["D3", "C3", "BJ"]}):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, bad)
        assert ENGINE.view(state, Viewpoint("referee")) == before


def test_kitty_goes_to_landlord_and_is_then_public():
    state = new_state(0)
    assert ENGINE.view(state, Viewpoint("public"))["kitty"] is None
    assert ENGINE.view(state, Viewpoint("referee"))["kitty"] == KITTY
    run(state, (0, "pass"), (1, "call"), (2, "pass"))
    assert len(state.hands[1]) == 20
    assert ENGINE.view(state, Viewpoint("public"))["kitty"] == KITTY


def test_views_hide_other_hands_unless_revealed():
    state = new_state(0)
    seat1 = ENGINE.view(state, Viewpoint("seat", 1))
    assert "hand" in seat1["seats"][1] and "hand" not in seat1["seats"][0] and "hand" not in seat1["seats"][2]
    assert all("hand" not in s for s in ENGINE.view(state, Viewpoint("public"))["seats"])
    run(state, (2, "reveal", {"stage": "start"}))
    public = ENGINE.view(state, Viewpoint("public"))
    assert "hand" in public["seats"][2] and "hand" not in public["seats"][0]


# -- scoring options (§2.4, §2.5) ------------------------------------------------------------------------------


def spring_record(options: dict) -> dict:
    """Seat 1 is landlord after one rob and goes out without either farmer playing (春天)."""
    return hand_made(0, ["S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7 H7 C7 S8 H8",
                         "D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA S2 H2 C2 D2 BJ",
                         "C8 S9 H9 C9 S10 H10 C10 SJ HJ CJ SQ HQ CQ SK HK CK LJ"], "SA HA CA", [
        move(0, "call"), move(1, "rob"), move(2, "pass"), move(0, "pass"),
        move(1, "play", "D3 D4 D5 D6 D7 D8 D9 D10 DJ DQ DK DA"), move(2, "pass"), move(0, "pass"),
        move(1, "play", "S2 H2 C2 D2"), move(2, "pass"), move(0, "pass"), move(1, "play", "SA HA CA BJ")], options)


@pytest.mark.parametrize(
    ("options", "scores"),
    [
        # rob ×2, bomb ×2, 春天 ×2 → M = 8.
        ({}, [-8, 24, -8]),
        ({"ddz.payout": "zeroSum21"}, [-8, 16, -8]),
        ({"ddz.chipMultiplier": False}, [-1, 3, -1]),
        ({"ddz.bombSpringMultipliers": False}, [-2, 6, -2]),
        ({"ddz.payout": "zeroSum21", "ddz.bombSpringMultipliers": False}, [-2, 4, -2]),
    ],
)
def test_spring_and_payout_options(options, scores):
    report = check_record(spring_record(options))
    assert report == {"ok": True, "result": {"scores": scores}}, report


def test_foul_penalty_is_deducted_and_noted():
    record = example_record()
    record["actions"].insert(5, {"seat": 1, "type": "foul", "code": "signalling", "note": "暗示同伴", "penalty": 2})
    assert check_record(record) == {"ok": True, "result": {"scores": [2, 0, -6]}}


def test_timeouts_pass_or_play_lowest():
    state = new_state(0)
    run(state, (0, "timeout"), (1, "call"), (2, "timeout"))
    assert state.landlord == 1 and state.bids[0] == (0, "pass")
    run(state, (1, "timeout"))
    assert state.current_round[0]["cards"] == ["H3"]  # the leader's lowest single
    run(state, (2, "timeout"))
    assert state.current_round[1]["type"] == "pass"


@pytest.mark.parametrize(
    "foul",
    [{"note": "no code"}, {"code": "", "note": "empty code"}, {"code": "talking", "note": 3},
     {"code": "talking", "note": "x", "penalty": -1}, {"code": "talking", "note": "x", "penalty": True}],
)
def test_malformed_fouls_are_refused(foul):
    record = example_record()
    record["actions"].insert(3, {"seat": 0, "type": "foul", **foul})
    report = check_record(record)
    assert report["action"] == 3 and report["code"] == "bad_action"


def test_a_fouls_penalty_has_a_limit():
    """A chip penalty beyond PENALTY_LIMIT (a typing slip, 10³⁰) is refused; the limit itself is a penalty."""
    from domain.kernel.engine import PENALTY_LIMIT
    for penalty in (PENALTY_LIMIT + 1, 10**30):
        with pytest.raises(IllegalAction) as refused:
            ENGINE.normalize_action({"seat": 0, "type": "foul", "code": "talking", "penalty": penalty})
        assert refused.value.code == "bad_action"
    most = ENGINE.normalize_action({"seat": 0, "type": "foul", "code": "x", "penalty": PENALTY_LIMIT})
    assert most["penalty"] == PENALTY_LIMIT == 1000


def test_a_play_s_readings_are_the_same_however_often_it_is_parsed():
    """The readings are kept per multiset of ranks (`fupan check` parses the same plays deal after deal): a
    reading list a caller changes, or the same ranks in other suits, never changes the next answer."""
    first = parses(cards("333444"))
    first.append(first[0])
    first.clear()
    assert [p.kind for p in parses(cards("333444"))] == ["trio_run"]
    assert parses(["S3", "H3", "C3", "D4", "S4", "H4"]) == parses(["D3", "C3", "S3", "H4", "C4", "D4"])
    assert parses(cards("34")) == [] and parses(cards("34")) == []


def test_a_play_of_several_readings_is_shown_by_its_highest_key():
    """§2.2 "Several readings": 333444555666 is a 三顺 of four, a plane 444555666 with the wings 3 and a plane
    333444555 with the wings 666; the view shows the highest class, then the highest key (6, not 5); a bomb or the
    rocket read alone are shown as such."""
    readings = parses(["S3", "H3", "C3", "S4", "H4", "C4", "S5", "H5", "C5", "S6", "H6", "C6"])
    assert sorted((p.kind, p.key) for p in readings) == [("plane_single", 5), ("plane_single", 6), ("trio_run", 6)]
    for order in (readings, sorted(readings, key=lambda p: p.key), sorted(readings, key=lambda p: -p.key)):
        assert lead_reading(order).key == 6
    two = [p for p in readings if p.kind == "plane_single"]  # the two planes alone, the lower first
    assert lead_reading(sorted(two, key=lambda p: p.key)).key == 6
    assert lead_reading(parses(["S9", "H9", "C9", "D9"])).kind == "bomb"
    assert lead_reading(parses(["BJ", "LJ"])).kind == "rocket"


@pytest.mark.parametrize(("play", "kind", "key"), [
    ("S5", "single", 5), ("S5 H5", "pair", 5), ("LJ BJ", "rocket", 17), ("S5 H5 C5", "trio", 5),
    ("S5 H5 C5 D5", "bomb", 5), ("S5 H5 C5 S9", "trio_single", 5), ("S5 H5 C5 S9 H9", "trio_pair", 5),
    ("S3 S4 S5 S6 S7", "straight", 7), ("S3 H3 S4 H4 S5 H5", "pair_run", 5), ("S3 H3 C3 S4 H4 C4", "trio_run", 4),
    ("S5 H5 C5 D5 S9 S8", "four_two_single", 5), ("S5 H5 C5 D5 S9 H9 S8 H8", "four_two_pair", 5),
    ("S3 H3 C3 S4 H4 C4 S9 S8", "plane_single", 4), ("S3 H3 C3 S4 H4 C4 S9 H9 S8 H8", "plane_pair", 4),
])
def test_a_play_is_shown_with_its_kind_its_number_of_cards_and_its_rank(play: str, kind: str, key: int):
    """§2.1–2.2: the reading a view shows (`pattern`: kind, size, key) — the size is the number of cards played,
    the key the rank of the set (3–10 as written, A 14, BJ 17) or the top of the sequence or plane."""
    cards = play.split()
    shown = lead_reading(parses(cards))
    assert (shown.kind, shown.size, shown.key) == (kind, len(cards), key)


def test_an_equal_play_does_not_beat():
    """§2.2: a follow must be strictly higher: the other pair of fives does not answer a pair of fives."""
    assert answers(parses(["D5", "C5"]), parses(["S5", "H5"])) == []
    assert answers(parses(["D6", "C6"]), parses(["S5", "H5"])) != []


@pytest.mark.parametrize(("play", "readings"), [
    ("LJ S5", []),  # a joker and a card are no pair; BJ + LJ is the rocket, never a pair
    ("S5 H5 C5 D5 LJ S9", [("four_two_single", 5)]), ("S5 H5 C5 D5 LJ BJ", []),
    ("S5 H5 C5 D5 S3 H3", [("four_two_single", 5)]),  # 四带二's singles may be a pair (5555+33)
    ("S3 H3 C3 S4 H4 C4 LJ S9", [("plane_single", 4)]), ("S3 H3 C3 S4 H4 C4 LJ BJ", []),
    ("SK HK CK SA HA CA S3 S4", [("plane_single", 14)]), ("SA HA CA S2 H2 C2 S3 S4", []),
    ("S3 H3 C3 S4 H4 C4 S7 H7 S9 H9", [("plane_pair", 4)]), ("S3 H3 C3 S4 H4 C4 S7 H7 C7 S9", []),
    ("S3 H3 C3 S4 H4 C4 S5 H5 C5 S6 H6 C6 S7 H7 C7 S8 H8 C8", [("trio_run", 8)]),
])
def test_wings_and_kickers_as_section_2_2_constrains_them(play: str, readings: list[tuple[str, int]]):
    """§2.2's constraints: single wings and 四带二's singles may not be BJ + LJ together, but one joker is a
    single; pair wings are pairs; sequences stop at A (no 2); a 三顺 of six triples is 18 cards."""
    assert sorted((p.kind, p.key) for p in parses(play.split())) == readings


# -- what each seat may do now, and what a view shows (§2.3, §2.7a, "Engine additions") -------------------------


def test_the_turn_offers_only_the_bids_and_the_pass_section_2_3_allows():
    """§2.3.3–4: the seat to act says 叫地主 or 不叫, then 抢地主 or 不抢; nobody else acts. In play the leader
    must play (no 不出), a follower may always pass (§2.7a.8); a finished deal offers nothing."""
    state = new_state(0)
    assert ENGINE.legal_actions(state, 0) == [{"seat": 0, "type": "call"}, {"seat": 0, "type": "pass"}]
    assert ENGINE.legal_actions(state, 1) == [] and ENGINE.legal_actions(state, 2) == []
    run(state, (0, "call"))
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "rob"}, {"seat": 1, "type": "pass"}]
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.legal_actions(state, 2) == []
    run(state, (1, "pass"), (2, "pass"))
    assert state.landlord == 0 and ENGINE.legal_actions(state, 0) == []  # the leader plays: no 不出
    run(state, (0, "play", {"cards": ["D3"]}))
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}]
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.legal_actions(state, 2) == []
    redealt = new_state(1)
    run(redealt, (1, "pass"), (2, "pass"), (0, "pass"))
    assert [ENGINE.legal_actions(redealt, s) for s in range(3)] == [[], [], []]


def test_the_status_says_whether_the_deal_is_over_and_who_bid_first():
    """§2.7a.2: with a pre-bid 明牌 the record's `first` is the first such player, who then bids; §2.7a.9: a redeal
    is a complete deal, with nobody left to act."""
    state = new_state(0)
    assert ENGINE.status(state) == {"phase": "bidding", "to_act": 0, "finished": False, "first": 0}
    run(state, (2, "reveal", {"stage": "start"}))
    assert ENGINE.status(state) == {"phase": "bidding", "to_act": 2, "finished": False, "first": 2}
    run(state, (2, "call"), (0, "pass"), (1, "pass"))
    assert ENGINE.status(state) == {"phase": "play", "to_act": 2, "finished": False, "first": 2}
    redealt = new_state(0)
    run(redealt, (0, "pass"), (1, "pass"), (2, "pass"))
    assert ENGINE.status(redealt) == {"phase": "finished", "to_act": None, "finished": True, "first": 0}
    assert ENGINE.view(redealt, Viewpoint("public"))["to_act"] is None


@pytest.mark.parametrize("reveal", [
    {"stage": "start", "received": 0},  # docs/record-format.md: `received` with another stage is bad_action
    {"stage": "deal", "received": True}, {"stage": "deal", "received": 18}, {"stage": "deal", "received": -1},
    {"stage": "deal", "received": "5"}, {"stage": "deal"},
])
def test_a_reveal_says_received_only_for_a_deal_reveal_and_as_a_whole_number_0_to_17(reveal):
    state = new_state(0)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "reveal", **reveal})
    assert error.value.code == "bad_action" and state.reveals == []


@pytest.mark.parametrize("received", [0, 17])
def test_a_deal_reveal_at_either_end_of_the_count_is_taken(received):
    state = new_state(0)
    ENGINE.apply(state, {"seat": 1, "type": "reveal", "stage": "deal", "received": received})
    assert state.reveals == [{"seat": 1, "stage": "deal", "received": received, "factor": 4 if received == 0 else 2}]


def test_the_pad_offers_each_reveal_where_section_2_7a_allows_it():
    """docs/pad.md: the offers are `legal_actions`, the seat to act's timeout and, in play, its play; 斗地主 adds
    明牌 (§2.3.1, §2.7a.1, .3, .5): before any bid to every seat (明牌开始, or 发牌明牌 with its count typed by the
    recorder), after the kitty to the landlord until its first play; never twice to one player."""
    start = {"type": "reveal", "stage": "start"}
    deal = {"type": "reveal", "stage": "deal", "received": None}
    state = new_state(0)
    assert ENGINE.offered_actions(state, 0) == [{"seat": 0, "type": "call"}, {"seat": 0, "type": "pass"},
                                                {"seat": 0, "type": "timeout"}, {"seat": 0, **start},
                                                {"seat": 0, **deal}]
    assert ENGINE.offered_actions(state, 1) == [{"seat": 1, **start}, {"seat": 1, **deal}]
    run(state, (1, "reveal", {"stage": "start"}))
    assert ENGINE.offered_actions(state, 1) == [{"seat": 1, "type": "call"}, {"seat": 1, "type": "pass"},
                                                {"seat": 1, "type": "timeout"}]  # revealed once: no more
    assert ENGINE.offered_actions(state, 2) == [{"seat": 2, **start}, {"seat": 2, **deal}]
    run(state, (1, "pass"))
    assert ENGINE.offered_actions(state, 0) == []  # after a bid, no pre-bid 明牌
    assert ENGINE.offered_actions(state, 2) == [{"seat": 2, "type": "call"}, {"seat": 2, "type": "pass"},
                                                {"seat": 2, "type": "timeout"}]
    fresh = new_state(0)
    run(fresh, (0, "call"), (1, "pass"), (2, "pass"))
    assert ENGINE.offered_actions(fresh, 0) == [{"seat": 0, "type": "timeout"},
                                                {"seat": 0, "type": "play", "cards": fresh.hands[0]},
                                                {"seat": 0, "type": "reveal", "stage": "after_kitty"}]
    assert ENGINE.offered_actions(fresh, 1) == [] and ENGINE.offered_actions(fresh, 2) == []
    run(fresh, (0, "play", {"cards": ["D3"]}))
    assert ENGINE.offered_actions(fresh, 1) == [{"seat": 1, "type": "pass"}, {"seat": 1, "type": "timeout"},
                                                {"seat": 1, "type": "play", "cards": fresh.hands[1]}]
    assert ENGINE.offered_actions(fresh, 0) == []  # the landlord has played: its 明牌 is past
    finished = new_state(0)
    run(finished, (0, "pass"), (1, "pass"), (2, "pass"))
    assert [ENGINE.offered_actions(finished, s) for s in range(3)] == [[], [], []]


def test_the_view_shows_every_action_the_kitty_once_there_is_a_landlord_and_a_revealed_hand():
    """"Engine additions": every action is public; the kitty is public once the landlord is known; a 明牌 hand is
    public (§2.3.1: for the rest of the deal). docs/ARCHITECTURE.md: a hidden hand is absent from a view."""
    state = new_state(0)
    public = ENGINE.view(state, Viewpoint("public"))
    assert public["landlord"] is None and public["kitty"] is None and public["result"] is None
    assert [(s["seat"], s["name"], s["count"], s["exposed"], s["role"], s["played"]) for s in public["seats"]] == [
        (0, "A", 17, False, None, []), (1, "B", 17, False, None, []), (2, "C", 17, False, None, [])]
    assert ENGINE.view(state, Viewpoint("seat", 1))["kitty"] is None
    run(state, (0, "call"), (1, "pass"), (2, "pass"), (0, "reveal", {"stage": "after_kitty"}))
    for viewpoint in (Viewpoint("public"), Viewpoint("seat", 2)):
        view = ENGINE.view(state, viewpoint)
        assert view["landlord"] == 0 and view["kitty"] == KITTY
        assert [s["role"] for s in view["seats"]] == ["landlord", "farmer", "farmer"]
        assert [s["count"] for s in view["seats"]] == [20, 17, 17] and view["seats"][0]["exposed"] is True
        assert sorted(view["seats"][0]["hand"]) == sorted(HANDS[0] + KITTY)  # the landlord's 明牌 after the kitty
        # listed in §2.1's order, the highest first (suits never count)
        assert [card if card in ("BJ", "LJ") else card[1:] for card in view["seats"][0]["hand"]] == [
            "BJ", "LJ", "2", "A", "K", "K", "Q", "J", "10", "9", "9", "9", "9", "8", "7", "6", "6", "4", "3", "3"]
        assert view["viewpoint"] == str(viewpoint)
        assert "hand" not in view["seats"][1]
        assert view["bidding"] == [{"seat": 0, "type": "call"}, {"seat": 1, "type": "pass"},
                                   {"seat": 2, "type": "pass"}]
        assert view["reveals"] == [{"seat": 0, "stage": "after_kitty", "factor": 2}]
        assert view["multipliers"] == {"rob": 1, "reveal": 2, "bomb": 1, "spring": 1, "total": 2}
    assert view["round"] == {"leader": 0, "plays": []}  # the landlord leads the first round
    run(state, (0, "play", {"cards": ["D3", "C3"]}))
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["seats"][0]["played"] == ["D3", "C3"] and view["seats"][0]["count"] == 18
    assert view["round"]["plays"] == [{"seat": 0, "type": "play", "cards": ["D3", "C3"], "pattern": {
        "kind": "pair", "size": 2, "key": 3, "zh": "对牌", "en": "pair"}}]  # §2.2's names of the pattern


def test_a_refused_follow_names_the_play_it_had_to_beat():
    """§2.2: a follow must beat the last play; the refusal says which reading that was (a pair of 3s, 对牌)."""
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"), (2, "pass"), (0, "play", {"cards": ["D3", "C3"]}))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "play", "cards": ["D5"]})
    assert error.value.code == "does_not_beat"
    assert error.value.details["last"] == {"kind": "pair", "size": 2, "key": 3, "zh": "对牌", "en": "pair"}


@pytest.mark.parametrize("kind", ["call", "rob"])
def test_a_bid_once_bidding_is_over_is_refused(kind: str):
    """§2.3: bidding ends when the landlord is known; a 叫地主 or 抢地主 after it is refused, even in turn."""
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"), (2, "pass"))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": kind})
    assert error.value.code == "bidding_over"


def test_a_refused_play_names_its_cards_as_cards_and_the_hand_they_are_not_in():
    """A refusal names cards as ♠A ♥10, never as codes, and a card not held names whose hand it is (its seat)."""
    state = new_state(0)
    run(state, (0, "call"), (1, "pass"), (2, "pass"))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "play", "cards": ["H4", "S2"]})
    assert error.value.code == "card_not_in_hand" and error.value.details == {"cards": ["S2"], "seat": 0}
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "play", "cards": ["D3", "H4"]})
    assert error.value.code == "not_a_pattern" and "♦3" in error.value.message and "♥4" in error.value.message_zh
    run(state, (0, "play", {"cards": ["D3", "C3"]}))
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "play", "cards": ["D5"]})
    assert error.value.code == "does_not_beat" and "♦5" in error.value.message and "♦5" in error.value.message_zh


def test_a_finished_deal_shows_its_result_and_every_foul_announced():
    """§2.7a.9: a redeal is a complete deal with its result; "Fouls": a referee's foul (seat, code, penalty) is
    announced (docs/SECURITY.md §4: only its note is withheld while live, by the services)."""
    state = new_state(0)
    run(state, (0, "pass"), (1, "foul", {"code": "talking", "note": "x", "penalty": 1}))
    live = ENGINE.view(state, Viewpoint("public"))
    assert live["result"] is None
    assert [(f["seat"], f["code"], f["penalty"]) for f in live["fouls"]] == [(1, "talking", 1)]
    run(state, (1, "pass"), (2, "pass"))
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["result"] == {"redeal": True, "scores": [0, -1, 0], "penalties": [0, -1, 0]}
    assert view["phase"] == "finished" and view["to_act"] is None
