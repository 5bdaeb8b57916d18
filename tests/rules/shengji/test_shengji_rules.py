"""升级 rules: every test vector of docs/rules/shengji.md §3.15 (L = 10, trump ♠ unless stated), on the real engine.

Play vectors start from a table set by `table()`: the play phase of a deal with short hands chosen for the
point being made. Declaration vectors run real deals from `deal_with()`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.games.shengji.cards import TRUMP, decompose, order_for
from domain.games.shengji.engine import ShengjiEngine
from domain.games.shengji.scoring import big_points, kitty_factor, level_change
from domain.games.shengji.state import ShengjiState
from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup
from domain.kernel.errors import IllegalAction

ENGINE = ShengjiEngine()
NAMES = ["甲", "乙", "丙", "丁"]


def table(hands: list[list[str]], *, trump: str = "S", level: int = 10, dealer: int = 0, leader: int | None = None,
          buried: list[str] | None = None, options: dict[str, Any] | None = None) -> ShengjiState:
    """A deal in its play phase with these hands (any sizes) and `buried` as the dealer's kitty."""
    order = order_for(level, trump)
    state = ShengjiState(ENGINE.resolve_options(options or {}), list(NAMES), dealer, [list(h) for h in hands],
                         [list(h) for h in hands], [], [level, level], dealer, 2, level, phase="playing",
                         to_act=dealer if leader is None else leader, order=order, trump=trump,
                         buried=list(buried or []))
    state.counts = [[sum(1 for c in h if order.suit[c] == s) for s in range(5)] for h in hands]
    return state


def play(state: ShengjiState, seat: int, cards: list[str], **extra: Any) -> None:
    ENGINE.apply(state, {"seat": seat, "type": "play", "cards": cards, **extra})


def refused(state: ShengjiState, action: dict[str, Any]) -> str:
    before = repr(state)
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, action)
    assert repr(state) == before  # a refused action leaves the state untouched
    return caught.value.code


def deal_with(prefixes: dict[int, list[str]], *, kitty: list[str] | None = None, first: int = 0,
              context: dict[str, Any] | None = None, options: dict[str, Any] | None = None, seed: int = 7
              ) -> ShengjiState:
    """A real deal: each seat's hand starts with its prefix (in the order received), the rest shuffled."""
    deck = full_deck(2, True)
    for cards in [*prefixes.values(), kitty or []]:
        for code in cards:
            deck.remove(code)
    random.Random(seed).shuffle(deck)
    hands = []
    for seat in range(4):
        prefix = list(prefixes.get(seat, []))
        hands.append(prefix + [deck.pop() for _ in range(25 - len(prefix))])
    rest_kitty = list(kitty) if kitty is not None else [deck.pop() for _ in range(8)]
    setup = DealSetup("shengji", ENGINE.resolve_options(options or {}), list(NAMES), first, hands, rest_kitty,
                      context if context is not None else {"levels": [10, 10], "dealer": None})
    return ENGINE.new_deal(setup)


def declare(state: ShengjiState, seat: int, cards: list[str], received: int | None = None) -> None:
    action: dict[str, Any] = {"seat": seat, "type": "declare", "cards": cards}
    if received is not None:
        action["received"] = received
    ENGINE.apply(state, action)


def final_round(state: ShengjiState) -> None:
    for k in range(4):
        ENGINE.apply(state, {"seat": (state.first + k) % 4, "type": "pass"})


# -- vector 1: card order --------------------------------------------------------------------------------------


def test_v1_card_order_with_trump_spades_at_level_ten():
    order = order_for(10, "S")
    chain = ["BJ", "LJ", "S10", "H10", "SA", "SK", "SJ", "S9"]
    values = [order.value[c] for c in chain]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert order.value["H10"] == order.value["C10"] == order.value["D10"]
    assert all(order.suit[c] == TRUMP for c in chain + ["C10", "D10"])
    hearts = ["HA", "HK", "HQ", "HJ", "H9"]
    assert [order.value[c] for c in hearts] == sorted((order.value[c] for c in hearts), reverse=True)
    assert {order.suit[c] for c in hearts} == {1}
    assert order.suit["H10"] == TRUMP  # ♥T is a trump, so a player whose only hearts are ♥T is void in hearts


def test_no_trump_order_puts_the_four_level_cards_level_under_the_jokers():
    order = order_for(10, "NT")
    assert order.value["BJ"] > order.value["LJ"] > order.value["S10"] == order.value["H10"] == order.value["D10"]
    assert order.suit["SA"] == 0 and order.suit["S10"] == TRUMP


# -- vector 2: equal cards, trumping a plain lead --------------------------------------------------------------


def test_v2_equal_trumps_the_first_played_wins():
    state = table([["D2", "D3"], ["H10", "C3"], ["C10", "C4"], ["D4", "D5"]], leader=0)
    play(state, 0, ["D2"])
    play(state, 1, ["H10"])
    play(state, 2, ["C10"])
    play(state, 3, ["D4"])
    assert state.tricks[-1]["winner"] == 1


def test_v2_a_void_player_trumps_with_a_two_and_wins_unless_overtrumped():
    state = table([["HA", "H3"], ["S2", "C3"], ["H4", "C4"], ["H5", "D5"]], leader=0)
    for seat, card in ((0, "HA"), (1, "S2"), (2, "H4"), (3, "H5")):
        play(state, seat, [card])
    assert state.tricks[-1]["winner"] == 1
    state = table([["HA", "H3"], ["S2", "C3"], ["S3", "C4"], ["H5", "D5"]], leader=0)
    for seat, card in ((0, "HA"), (1, "S2"), (2, "S3"), (3, "H5")):
        play(state, seat, [card])
    assert state.tricks[-1]["winner"] == 2


# -- vector 3: tractors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("cards", "tractor"), [
    (["HJ", "HJ", "H9", "H9"], 2),
    (["SA", "SA", "H10", "H10"], 2),
    (["H10", "H10", "C10", "C10"], None),
    (["S10", "S10", "LJ", "LJ"], 2),
    (["LJ", "LJ", "BJ", "BJ"], 2),
    (["SA", "SA", "H10", "H10", "S10", "S10"], 3),
    (["HA", "HA", "H2", "H2"], None),
    (["SJ", "SJ", "S10", "S10"], None),
])
def test_v3_tractors(cards, tractor):
    parts = decompose(cards, order_for(10, "S").value)
    if tractor is None:
        assert all(p.pairs < 2 for p in parts)
    else:
        assert [p.pairs for p in parts] == [tractor]


def test_throw_decomposition_with_equal_off_level_pairs_takes_the_longest_tractor_listed_first():
    # §3.14a.3: AA ♣TT ♥TT ♠TT (trump ♠): the tractor AA ♣TT ♠TT, then the pair ♥TT.
    parts = decompose(["SA", "SA", "C10", "C10", "H10", "H10", "S10", "S10"], order_for(10, "S").value)
    assert [(p.pairs, sorted(set(p.cards))) for p in parts] == [(3, ["C10", "S10", "SA"]), (1, ["H10"])]


def test_the_buried_cards_are_hidden_from_the_public_action_log():
    assert ENGINE.public_action({"seat": 2, "type": "bury", "cards": ["S3"] * 8}) == {"seat": 2, "type": "bury",
                                                                                       "count": 8}
    play_action = {"seat": 2, "type": "play", "cards": ["S3"]}
    assert ENGINE.public_action(play_action) == play_action


def test_tractor_chain_when_the_level_is_ace_runs_from_trump_king_to_the_off_level_pair():
    value = order_for(14, "S").value
    assert [p.pairs for p in decompose(["SK", "SK", "HA", "HA"], value)] == [2]
    assert [p.pairs for p in decompose(["SA", "SA", "LJ", "LJ", "HA", "HA"], value)] == [3]


def test_no_trump_chain_level_pair_then_little_then_big_joker():
    value = order_for(10, "NT").value
    assert [p.pairs for p in decompose(["H10", "H10", "LJ", "LJ", "BJ", "BJ"], value)] == [3]
    assert [p.pairs for p in decompose(["H10", "H10", "S10", "S10"], value)] == [1, 1]


# -- vectors 4 and 5: following pairs and tractors -------------------------------------------------------------


def test_v4_a_pair_lead_must_be_followed_by_a_pair():
    state = table([["H8", "H8", "D2", "D3"], ["H7", "H7", "H6", "H6", "HA", "H3"], ["D4", "D5"], ["D6", "D7"]],
                  leader=0)
    play(state, 0, ["H8", "H8"])
    assert refused(state, {"seat": 1, "type": "play", "cards": ["HA", "H3"]}) == "must_play_pair"
    play(state, 1, ["H6", "H6"])


@pytest.mark.parametrize(("hearts", "good", "bad", "code"), [
    (["HA", "HA", "H7", "H7", "H5", "H4"], ["HA", "HA", "H7", "H7"], ["HA", "HA", "H5", "H4"], "must_play_pair"),
    (["HA", "HA", "H5", "H4", "H3"], ["HA", "HA", "H5", "H3"], ["HA", "H5", "H4", "H3"], "must_play_pair"),
    (["HA", "H2", "C3", "C4"], ["HA", "H2", "C3", "C4"], ["HA", "C3", "C4", "C4"], "card_not_in_hand"),
])
def test_v5_a_tractor_lead(hearts, good, bad, code):
    follower = hearts + ["C5", "C6", "D9"]
    state = table([["HK", "HK", "HQ", "HQ"], follower, ["D2", "D3", "D4", "D5"], ["C7", "C8", "C9", "CJ"]],
                  leader=0)
    play(state, 0, ["HK", "HK", "HQ", "HQ"])
    assert refused(state, {"seat": 1, "type": "play", "cards": bad}) == code
    play(state, 1, good)


def test_v5_with_a_and_2_only_both_hearts_must_be_in_the_follow():
    state = table([["HK", "HK", "HQ", "HQ"], ["HA", "H2", "C3", "C4", "C5"], ["D2", "D3", "D4", "D5"],
                   ["C7", "C8", "C9", "CJ"]], leader=0)
    play(state, 0, ["HK", "HK", "HQ", "HQ"])
    assert refused(state, {"seat": 1, "type": "play", "cards": ["HA", "C3", "C4", "C5"]}) == "must_follow_suit"
    play(state, 1, ["HA", "H2", "C3", "C5"])


def test_a_tractor_in_hand_must_be_played_on_a_tractor_lead():
    # ♥JJ♥99 is a tractor at level 10; ♥5533 is not.
    state = table([["HK", "HK", "HQ", "HQ"], ["HJ", "HJ", "H9", "H9", "H5", "H5", "H3", "H3"], ["D2", "D3", "D4", "D5"],
                   ["C7", "C8", "C9", "CJ"]], leader=0)
    play(state, 0, ["HK", "HK", "HQ", "HQ"])
    assert refused(state, {"seat": 1, "type": "play", "cards": ["H5", "H5", "H3", "H3"]}) == "must_play_tractor"
    play(state, 1, ["HJ", "HJ", "H9", "H9"])


# -- vectors 6–8: trumping multi-card leads ------------------------------------------------------------------


def _throw_table(lead: list[str], second: list[str], third: list[str] | None = None) -> ShengjiState:
    """Seat 0 leads `lead` in ♦; nobody else holds a diamond (the rest are buried), so the throw stands."""
    diamonds = [c for c in full_deck(2, True) if c.startswith("D") and c != "D10"]
    for code in lead:
        diamonds.remove(code)
    size = len(lead)
    pad = ["C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"]
    hands = [lead, second + pad[: size - len(second)] if len(second) < size else second,
             third or ["H2", "H3", "H4", "H5", "H6", "H7"][:size], ["HK", "HQ", "HJ", "H9", "H8", "H7"][:size]]
    return table(hands, leader=0, buried=diamonds)


def _throw_trick(lead: list[str], second: list[str], third: list[str] | None = None
                 ) -> tuple[ShengjiState, list[int | None]]:
    """The trick of `_throw_table`, each seat playing the whole hand it was given (seat 0 the lead, seat 1
    `second`, seat 2 `third` or hearts, seat 3 hearts): the state after it and the seat winning after each play."""
    state = _throw_table(lead, second, third)
    winning = []
    for seat, cards in enumerate([list(hand) for hand in state.hands]):
        play(state, seat, cards)
        winning.append(state.best_seat)
    return state, winning


def test_v6_a_valid_throw_is_beaten_by_a_matching_trump_and_not_by_a_discard():
    lead = ["DA", "DK", "D5", "D5", "D4", "D4"]
    state, _ = _throw_trick(lead, ["S9", "S9", "S8", "S8", "S7", "S2"])
    assert "failed_throw" not in state.tricks[-1]["plays"][0]
    assert state.tricks[-1]["winner"] == 1
    state, _ = _throw_trick(lead, ["S9", "S9", "S7", "S6", "S3", "S2"])
    assert state.tricks[-1]["winner"] == 0


def test_v7_a_trump_needs_as_many_pairs_as_the_lead():
    state, _ = _throw_trick(["DA", "DA", "D5", "D5", "D4", "D4"], ["S9", "S9", "S8", "S8", "S7", "S2"])
    assert state.tricks[-1]["winner"] == 0


def test_v8_overtrumping_compares_the_pair_then_the_top_single():
    state, winning = _throw_trick(["D5", "D4", "D4"], ["S9", "S7", "S7"], ["S4", "S8", "S8"])
    assert winning[1] == 1
    assert state.tricks[-1]["winner"] == 2
    state, _ = _throw_trick(["D5", "D6", "D7"], ["S9", "S7", "S7"], ["S8", "S8", "S4"])
    assert state.tricks[-1]["winner"] == 1


# -- vector 9: failed throws -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("blocker", "forced"), [(["HJ", "C2", "C3"], ["H9"]), (["H5", "H5", "C2"], ["H4", "H4"])])
@pytest.mark.parametrize(("dealer", "effect"), [(1, -40), (0, 40)])
def test_v9_a_failed_throw_plays_the_smallest_beatable_part_and_pays_per_retracted_card(blocker, forced, dealer,
                                                                                          effect):
    thrower = ["H9", "H8", "H8", "H4", "H4", "D2"]
    state = table([thrower, blocker, ["C4", "C5", "C6"], ["C7", "C8", "C9"]], dealer=dealer, leader=0,
                  options={"sj.preset": "s004"})
    play(state, 0, ["H9", "H8", "H8", "H4", "H4"])
    lead = state.trick[0]
    assert lead["failed_throw"] and lead["cards"] == forced and lead["attempted"] == ["H9", "H8", "H8", "H4", "H4"]
    assert lead["blockers"] == [1]
    assert state.penalties[-1]["points"] == 10 * (5 - len(forced))
    assert state.penalties[-1]["effect"] == (effect if forced == ["H9"] else effect // 4 * 3)
    assert sorted(state.hands[0]) == sorted(remove(thrower, forced))  # the other cards went back to the hand


def remove(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for code in cards:
        rest.remove(code)
    return rest


def test_a_partner_blocks_a_throw_too():
    state = table([["H9", "H8", "H8"], ["C2", "C3", "C4"], ["HJ", "C5", "C6"], ["C7", "C8", "C9"]], leader=0)
    play(state, 0, ["H9", "H8", "H8"])
    assert state.trick[0]["cards"] == ["H9"] and state.trick[0]["blockers"] == [2]


def test_forced_field_is_checked():
    hands = [["H9", "H8", "H8"], ["HJ", "C3", "C4"], ["C2", "C5", "C6"], ["C7", "C8", "C9"]]
    state = table(hands, leader=0)
    assert refused(state, {"seat": 0, "type": "play", "cards": ["H9", "H8", "H8"], "forced": ["H8", "H8"]}) \
        == "forced_mismatch"
    play(state, 0, ["H9", "H8", "H8"], forced=["H9"])
    state = table([["HA", "HA", "HK"], ["HJ", "C3", "C4"], ["C2", "C5", "C6"], ["C7", "C8", "C9"]], leader=0,
                  buried=["HK"])
    assert refused(state, {"seat": 0, "type": "play", "cards": ["HA", "HA", "HK"], "forced": ["HK"]}) \
        == "throw_not_failed"


def test_equal_beatable_components_force_the_one_listed_first():
    # §3.14a.2: ♥TT and ♣TT (副级 pairs) are both beaten by a ♠TT pair; the first listed is forced.
    hands = [["H10", "H10", "C10", "C10"], ["S10", "S10", "C3", "C4"], ["C2", "C5", "C6", "C7"],
             ["C8", "C9", "CJ", "CQ"]]
    state = table(hands, leader=0)
    play(state, 0, ["C10", "C10", "H10", "H10"])
    assert state.trick[0]["cards"] == ["C10", "C10"]


# -- vector 10: 抠底 -----------------------------------------------------------------------------------------------


KITTY_25 = ["D5", "DK", "D10", "D2", "D3", "D4", "D6", "D7"]


@pytest.mark.parametrize(("lead", "doubling", "linear"), [
    (["HA"], 50, 50),
    (["HA", "HA"], 100, 100),
    (["HQ", "HQ", "HJ", "HJ"], 200, 200),
    (["HQ", "HQ", "HJ", "HJ", "H9", "H9"], 400, 300),
])
@pytest.mark.parametrize("preset", ["s001", "s004"])
def test_v10_kitty_multiplier(lead, doubling, linear, preset):
    size = len(lead)
    for rule, bonus in (("doubling", doubling), ("linear", linear)):
        hands = [["C2", "C3", "C4", "C6", "C7", "C8"][:size], lead, ["C9", "CJ", "CQ", "CA", "C6", "C7"][:size],
                 ["H2", "H3", "H4", "H6", "H7", "H8"][:size]]
        state = table(hands, dealer=0, leader=1, buried=KITTY_25,
                      options={"sj.preset": preset, "sj.kittyMultiplier": rule})
        for seat in (1, 2, 3, 0):
            play(state, seat, hands[seat])
        result = ENGINE.result(state)
        assert result["points"]["kitty_cards"] == 25
        assert result["points"]["kitty_bonus"] == bonus
        assert result["attacker_points"] == bonus


def test_the_dealer_team_winning_the_last_trick_keeps_the_kitty():
    hands = [["SA"], ["HA"], ["H2"], ["H3"]]
    state = table(hands, dealer=0, leader=1, buried=KITTY_25)
    for seat in (1, 2, 3, 0):
        play(state, seat, hands[seat])
    assert ENGINE.result(state)["points"]["kitty_bonus"] == 0


def test_kitty_factor_table():
    assert [kitty_factor(n, "doubling") for n in range(4)] == [2, 4, 8, 16]
    assert [kitty_factor(n, "linear") for n in range(4)] == [2, 4, 8, 12]


# -- vectors 11 and 12: level change and 大分 --------------------------------------------------------------------


@pytest.mark.parametrize(("points", "s001", "s004"), [
    (0, (False, 3), (False, 3)), (35, (False, 2), (False, 2)), (75, (False, 1), (False, 1)),
    (80, (True, 1), (True, 0)), (125, (True, 2), (True, 1)), (165, (True, 3), (True, 2)),
    (245, (True, 5), (True, 3)), (200, (True, 4), (True, 3)),
])
def test_v11_level_change(points, s001, s004):
    assert level_change(points, "s001") == s001
    assert level_change(points, "s004") == s004


@pytest.mark.parametrize(("points", "big"), [
    (0, (6, 0)), (35, (4, 0)), (60, (2, 0)), (85, (0, 2)), (130, (0, 4)), (170, (0, 6)), (210, (0, 10)),
])
def test_v12_big_points(points, big):
    assert big_points(points) == big


# -- vectors 13–16: declarations ---------------------------------------------------------------------------------


def test_v13_overcalls_up_to_no_trump_and_no_further_by_default():
    state = deal_with({0: ["H10"], 1: ["C10", "C10"], 2: ["LJ", "LJ"], 3: ["BJ", "BJ"]})
    declare(state, 0, ["H10"], 1)
    assert state.declarations[-1].suit == "H"
    declare(state, 1, ["C10", "C10"], 2)
    assert state.declarations[-1].suit == "C"
    declare(state, 2, ["LJ", "LJ"], 2)
    assert state.declarations[-1].suit == "NT"
    assert refused(state, {"seat": 3, "type": "declare", "cards": ["BJ", "BJ"], "received": 2}) \
        == "overcall_too_weak"
    final_round(state)
    assert state.trump == "NT" and state.dealer == 0


def test_v13_big_joker_pair_overcall_when_switched_on():
    state = deal_with({2: ["LJ", "LJ"], 0: ["H10"], 3: ["BJ", "BJ"]}, options={"sj.bigJokerPairOvercall": True})
    declare(state, 0, ["H10"], 1)
    declare(state, 2, ["LJ", "LJ"], 2)
    declare(state, 3, ["BJ", "BJ"], 2)
    assert refused(state, {"seat": 2, "type": "declare", "cards": ["LJ", "LJ"], "received": 2}) \
        == "overcall_too_weak"


def test_v14_self_protection_blocks_a_suit_overcall():
    state = deal_with({0: ["H10", "H10"], 1: ["C10", "C10"]})
    declare(state, 0, ["H10"], 1)
    declare(state, 0, ["H10", "H10"], 2)
    assert refused(state, {"seat": 1, "type": "declare", "cards": ["C10", "C10"], "received": 2}) \
        == "overcall_too_weak"


@pytest.mark.parametrize(("preset", "allowed"), [("s001", True), ("s004", False)])
def test_v14_self_overcall_with_another_suit_depends_on_the_preset(preset, allowed):
    state = deal_with({0: ["H10", "D10", "D10"]}, options={"sj.preset": preset})
    declare(state, 0, ["H10"], 1)
    action = {"seat": 0, "type": "declare", "cards": ["D10", "D10"], "received": 3}
    if allowed:
        ENGINE.apply(state, action)
        final_round(state)
        assert state.trump == "D"
    else:
        assert refused(state, action) == "self_overcall_not_allowed"


@pytest.mark.parametrize("preset", ["s001", "s004"])
def test_own_joker_overcall_is_allowed_under_both_presets(preset):
    state = deal_with({0: ["H10", "LJ", "LJ"]}, options={"sj.preset": preset})
    declare(state, 0, ["H10"], 1)
    declare(state, 0, ["LJ", "LJ"], 3)
    assert state.declarations[-1].suit == "NT"


def test_no_trump_cannot_be_declared_first():
    state = deal_with({0: ["LJ", "LJ"]})
    assert refused(state, {"seat": 0, "type": "declare", "cards": ["LJ", "LJ"], "received": 2}) \
        == "no_trump_needs_overcall"


def test_v15_deal_one_first_declarer_deals_and_an_overcall_changes_only_the_trump():
    state = deal_with({0: ["H10"], 1: ["C10", "C10"]})
    declare(state, 0, ["H10"], 1)
    declare(state, 1, ["C10", "C10"], 2)
    final_round(state)
    assert state.dealer == 0 and state.trump == "C" and state.phase == "burying"
    assert len(state.hands[0]) == 33


def test_v15_nobody_declares_in_deal_one_redeal():
    state = deal_with({})
    final_round(state)
    assert ENGINE.result(state) == {"redeal": True, "scores": [0, 0, 0, 0], "deal_number": 1, "levels": [10, 10]}


@pytest.mark.parametrize(("preset", "trump"), [("s001", "NT"), ("s004", "C")])
def test_v16_no_declaration_takes_the_trump_from_the_kitty(preset, trump):
    kitty = ["C3", "DK", "BJ", "H4", "H5", "H6", "H7", "H8"]
    state = deal_with({}, kitty=kitty, context={"levels": [10, 10], "dealer": 2}, options={"sj.preset": preset})
    final_round(state)
    assert state.trump == trump and state.dealer == 2


def test_kitty_joker_next_card_and_third_card_options():
    kitty = ["BJ", "LJ", "H3", "DK", "C4", "H5", "H6", "H7"]
    state = deal_with({}, kitty=kitty, context={"levels": [5, 7], "dealer": 1},
                      options={"sj.kittyTrumpCard": "first", "sj.kittyJoker": "nextCard"})
    final_round(state)
    assert state.trump == "H" and state.kitty_shown == ["BJ", "LJ", "H3"] and state.level == 7
    state = deal_with({}, kitty=["BJ", "LJ", "H3", "DK", "C4", "H5", "H6", "H7"],
                      context={"levels": [5, 7], "dealer": 1},
                      options={"sj.kittyTrumpCard": "third", "sj.kittyJoker": "noTrump"})
    final_round(state)
    assert state.trump == "H"


# -- vector 17: next dealer ----------------------------------------------------------------------------------------


def _end_with_points(points: int, *, dealer: int = 0, levels: tuple[int, int] = (6, 9),
                     options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Finish a deal whose earlier tricks gave the attackers `points`; the last trick is pointless."""
    state = table([["S3"], ["S4"], ["S6"], ["S7"]], dealer=dealer, leader=dealer, options=options)
    state.levels = list(levels)
    state.level = levels[dealer % 2]
    state.captured[1 - dealer % 2] = points
    for k in range(4):
        play(state, (dealer + k) % 4, list(state.hands[(dealer + k) % 4]))
    return ENGINE.result(state)


def test_v17_the_dealer_team_holds_and_the_partner_deals_next():
    result = _end_with_points(50)
    assert result["next_dealer"] == 2 and result["level_change"] == {"team": 0, "steps": 1}
    assert result["new_levels"] == [7, 9] and result["scores"] == [1, 0, 1, 0]


def test_v17_the_attackers_take_over_and_the_dealers_next_player_deals():
    result = _end_with_points(90, options={"sj.preset": "s001"})
    assert result["next_dealer"] == 1 and result["takeover"] and result["level_change"] == {"team": 1, "steps": 1}
    assert result["new_levels"] == [6, 10]
    result = _end_with_points(90, options={"sj.preset": "s004"})
    assert result["next_dealer"] == 1 and result["new_levels"] == [6, 9] and result["big_points"] == [0, 2]
