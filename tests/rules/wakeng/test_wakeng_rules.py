"""竞技挖坑 rules: every vector W1–W18 of docs/rules/wakeng.md B10 (W19, a standings vector, is in
test_wakeng_table.py), worked examples of B6's formula, the clarifications of B11 and every ruleset switch of B3–B6.

Deals are built by hand: `make_deal` places the cards a test needs (exact codes: hearts decide who bids and
leads first) and deals the rest of the 52 round-robin in Wakeng order, so every deal is a legal 3×16 + 4 deck.
Seats 0, 1, 2 are P1, P2, P3 of the vectors when seat 0 holds the lowest heart.
"""

from __future__ import annotations

import re

import pytest
from game_support import Scripted, deal_the_rest

from domain.games.wakeng.engine import WakengEngine, first_bidder, must_dig
from domain.games.wakeng.patterns import beats, card_order, parse
from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import check_record

ENGINE = WakengEngine()
SCRIPT = Scripted(ENGINE)
act, bid, passes, refused, scores = SCRIPT.act, SCRIPT.bid, SCRIPT.passes, SCRIPT.refused, SCRIPT.scores
NAMES = ["东", "南", "西"]
DECK = full_deck(1, False)
SUITS = "DCHS"
RUN_RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def ranks(text: str) -> list[str]:
    """'4 5 T J' → rank tokens (T is 10)."""
    return ["10" if r == "T" else r for r in re.findall(r"10|[2-9TJQKA]", text)]


def cards(text: str) -> list[str]:
    """Real card codes for a rank string (suits cycle ♦ ♣ ♥ ♠ per rank), for pattern tests."""
    seen: dict[str, int] = {}
    out = []
    for rank in ranks(text):
        out.append(SUITS[seen.get(rank, 0) % 4] + rank)
        seen[rank] = seen.get(rank, 0) + 1
    return out


def pattern(text: str):
    found = parse(cards(text))
    assert found is not None, text
    return found


def legal_reply(play: str, previous: str, quad_is_bomb: bool = False) -> bool:
    found = parse(cards(play))
    return found is not None and beats(found, pattern(previous), quad_is_bomb)


def pairs(rank_list: list[str], suits: str) -> list[str]:
    return [s + r for r in rank_list for s in suits]


def make_deal(spec: dict[int, list[str]], kitty: list[str] = ()) -> tuple[list[list[str]], list[str]]:
    """Seat k holds spec[k] (≤ 16 exact codes), the kitty `kitty` (≤ 4); the rest round-robin in Wakeng order."""
    pool = sorted(DECK, key=card_order)
    zones: list[list[str]] = [[], [], [], []]
    for zone, codes in [*spec.items(), (3, list(kitty))]:
        for code in codes:
            pool.remove(code)
            zones[zone].append(code)
    deal_the_rest(zones, [16, 16, 16, 4], pool)
    return zones[:3], zones[3]


def new_state(spec: dict[int, list[str]] | None = None, kitty: list[str] = (), options: dict | None = None,
              board=None):
    hands, kitty_cards = make_deal(spec or {}, kitty)
    first = first_bidder(hands)
    context = {} if board is None else {"board": board}
    state = ENGINE.new_deal(DealSetup("wakeng", ENGINE.resolve_options(options or {}), list(NAMES), first, hands,
                                      kitty_cards, context))
    # The record of what `act` applies (not a field of the state: state equality ignores it).
    state.record = {"format": "fupan.deal/1", "game": "wakeng", "options": options or {}, "seats": list(NAMES),
                    "first": first, "hands": hands, "kitty": kitty_cards, "context": context, "actions": []}
    return state


def take(state, seat: int, text: str) -> list[str]:
    """Codes from `seat`'s hand: exact codes ('H4') or ranks ('4', the lowest suit held first)."""
    hand = sorted(state.hands[seat], key=card_order)
    out = []
    for token in text.split():
        if token[0] in SUITS and len(token) > 1 and not token.isdigit():
            code = token
        else:
            rank = "10" if token == "T" else token
            code = next(c for c in hand if c[1:] == rank)
        hand.remove(code)
        out.append(code)
    return out


def play(state, seat: int, text: str) -> None:
    act(state, seat, "play", cards=take(state, seat, text))


def decide(state, *choices: str) -> None:
    """Decisions from the seat to act on: 'reveal' / 'double' / 'pass'."""
    for choice in choices:
        act(state, state.to_act, choice)


def to_play(state, reveals=("pass",) * 3, bids=(None, None, None), post=("pass",), doubles=("pass",) * 3):
    decide(state, *reveals)
    bid(state, *bids)
    if state.phase == "post_reveal":
        decide(state, *post)
    decide(state, *doubles)
    assert state.phase == "play"


def check(state) -> dict:
    """The record of the actions applied so far, checked as `fupan check` would."""
    return check_record(state.record)


# -- scenario decks --------------------------------------------------------------------------------------------
# DIGGER_OUT: seat d's 16 cards and the kitty make the pair run 44…KK (20 cards): the digger (holding ♥4, so the
# first bidder and the leader) goes out with its first lead.
def digger_out(d: int = 0) -> dict:
    twenty = pairs(RUN_RANKS, "HS")
    kitty = ["S10", "SJ", "SQ", "SK"]
    return {"spec": {d: [c for c in twenty if c not in kitty]}, "kitty": kitty}


# DEFENDERS_OUT: the digger d holds 44…JJ (8 pairs) + AAA + ♠3 (with the kitty); the next seat y holds 55…QQ.
# The digger leads AAA, then the pair run, keeping ♠3; y answers with the higher pair run and is out.
def defenders_out(d: int = 0) -> dict:
    eight = RUN_RANKS[:8]
    kitty = ["HA", "SA", "CA", "S3"]
    y = (d + 1) % 3
    return {"spec": {d: pairs(eight, "HS"), y: pairs(RUN_RANKS[1:9], "DC")}, "kitty": kitty}


def finish_digger_out(state) -> None:
    d = state.digger
    assert state.to_act == d and len(state.hands[d]) == 20
    act(state, d, "play", cards=list(state.hands[d]))
    assert state.phase == "finished" and state.winner == d


def finish_defenders_out(state) -> None:
    d = state.digger
    y = (d + 1) % 3
    assert state.to_act == d
    play(state, d, "A A A")
    passes(state)
    play(state, d, "4 4 5 5 6 6 7 7 8 8 9 9 T T J J")
    assert state.hands[d] == ["S3"]
    act(state, y, "play", cards=list(state.hands[y]))
    assert state.phase == "finished" and state.winner == y


# -- B10 vectors W1–W9: patterns ---------------------------------------------------------------------------------


def test_w1_three_beats_two():
    assert beats(parse(["H3"]), parse(["S2"]))


def test_w2_four_is_the_lowest_card():
    assert not beats(parse(["S4"]), parse(["H3"]))
    assert beats(parse(["H3"]), parse(["S4"]))
    order = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3"]
    for low, high in zip(order, order[1:], strict=False):
        assert legal_reply(high, low) and not legal_reply(low, high) and not legal_reply(low, low)


def test_w3_pair_33_beats_pair_22():
    assert legal_reply("3 3", "2 2")
    assert not legal_reply("2 2", "3 3")


def test_w4_runs_within_4_to_k_are_legal_leads():
    assert pattern("4 5 6") == ("run", 3, 6)
    assert pattern("J Q K") == ("run", 3, 13)
    assert pattern("4 5 6 7 8 9 T J Q K") == ("run", 10, 13)  # the longest run: 10 ranks


def test_w5_a_2_and_3_never_make_a_run():
    for text in ("Q K A", "K A 2", "2 3 4", "A 2 3", "J Q K A"):
        assert parse(cards(text)) is None, text


def test_w6_a_run_has_at_least_3_ranks():
    assert parse(cards("4 5")) is None
    assert parse(cards("4 4 5 5")) is None  # two pairs are not a pair run either


def test_w7_runs_answer_only_runs_of_the_same_length():
    assert legal_reply("5 6 7", "4 5 6")
    assert not legal_reply("5 6 7 8", "4 5 6")
    assert not legal_reply("4 5 6", "5 6 7")


def test_w8_no_bombs_by_default():
    assert not legal_reply("4 4 4 4", "7 7")
    assert legal_reply("4 4 4 4", "7 7", quad_is_bomb=True)  # only with wk.quadIsBomb


def test_w9_pair_runs_of_the_same_length():
    assert legal_reply("5 5 6 6 7 7", "4 4 5 5 6 6")
    assert not legal_reply("5 5 6 6 7 7 8 8", "4 4 5 5 6 6")


# -- B10 vectors W10–W16: bidding and play -----------------------------------------------------------------------


def bidding_state():
    state = new_state({0: ["H4"]})
    assert state.first == 0
    decide(state, "pass", "pass", "pass")
    assert state.phase == "bidding" and state.to_act == 0
    return state


def test_w10_a_bid_of_3_ends_bidding():
    state = bidding_state()
    bid(state, 1, 3)
    assert (state.digger, state.bid, state.phase, state.to_act) == (1, 3, "post_reveal", 1)
    assert [seat for seat, _ in state.bids] == [0, 1]  # P3 never bids


def test_w11_highest_bid_after_one_round_digs():
    state = bidding_state()
    refused(state, {"seat": 0, "type": "bid", "value": 0}, "bad_bid")
    bid(state, 1)
    refused(state, {"seat": 1, "type": "bid", "value": 1}, "bid_too_low")  # P2 cannot bid 1: it must be > 1
    bid(state, None, 2)
    assert (state.digger, state.bid, state.lanwa) == (2, 2, False)


def test_w12_all_pass_is_lanwa_the_first_bidder_digs_at_1():
    state = bidding_state()
    bid(state, None, None, None)
    assert (state.digger, state.bid, state.lanwa) == (0, 1, True)
    assert len(state.hands[0]) == 20


def test_w13_hearts_4_and_5_in_the_kitty_h6_bids_first_and_the_h4_taker_leads():
    state = new_state({2: ["H6"]}, kitty=["H4", "H5", "D4", "C4"])
    assert state.first == 2 and state.to_act == 2
    decide(state, "pass", "pass", "pass")
    bid(state, None, None, 1)  # P3, P1 pass; P2 digs
    assert state.digger == 1 and "H4" in state.hands[1]
    decide(state, "pass")  # post-bid 明牌
    decide(state, "pass", "pass", "pass")
    assert state.phase == "play" and state.to_act == 1 and state.leader == 1


def test_w14_hand_sizes_after_bidding():
    state = bidding_state()
    bid(state, None, 2, None)
    assert [len(h) for h in state.hands] == [16, 20, 16]
    assert sorted(c for h in state.hands for c in h) == sorted(DECK)


def test_w15_a_defender_out_first_wins_for_the_defenders():
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(2, None, None))
    finish_defenders_out(state)
    assert len(state.hands[0]) == 1  # the digger still held a card
    result = ENGINE.result(state)
    assert result["winner"] == 1 and not result["digger_won"]
    assert result["seat_facts"]["won"] == [0, 1, 1]
    assert check(state)["ok"]


def test_w16_two_passes_after_the_highest_pair_give_its_player_the_lead():
    state = new_state({0: ["H4", "S4", "H5"], 1: ["D5", "C5"], 2: ["D6", "C6", "H6", "S6"]})
    to_play(state, bids=(1, None, None))
    play(state, 0, "4 4")
    act(state, 1, "pass")
    play(state, 2, "6 6")
    passes(state)  # seat 0 and seat 1
    assert state.to_act == 2 and state.last_pattern is None and state.leader == 2
    assert len(state.rounds) == 1 and [p["type"] for p in state.rounds[0]] == ["play", "pass", "play", "pass", "pass"]
    refused(state, {"seat": 2, "type": "pass"}, "must_lead")
    play(state, 2, "6 6")  # any pattern, any height
    assert state.last_pattern == ("pair", 2, 6)


# -- B10 W17–W18 and B6 worked examples ----------------------------------------------------------------------------


def test_w17_b2_no_options_the_digger_wins_4_2_2():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(2, None, None))
    finish_digger_out(state)
    assert scores(state) == [4, -2, -2]
    assert check(state) == {"ok": True, "result": {"scores": [4, -2, -2]}}


def test_w18_b3_digger_shows_after_bidding_digger_and_x_double_digger_loses():
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(3,), post=("reveal",), doubles=("double", "pass", "double"))  # digger, Y (1), X (2)
    assert ENGINE.stakes(state) == [0, 12, 24]
    finish_defenders_out(state)
    assert scores(state) == [-36, 12, 24]  # digger −36, X +24, Y +12
    assert check(state)["result"]["scores"] == [-36, 12, 24]


def test_b6_example_a_b2_digger_wins():
    deck = digger_out(1)
    state = new_state(deck["spec"], deck["kitty"])
    assert state.first == 1
    to_play(state, bids=(2, None, None))
    finish_digger_out(state)
    assert scores(state) == [-2, 4, -2]


def test_b6_example_b_lanwa_digger_loses():
    deck = defenders_out(2)
    state = new_state(deck["spec"], deck["kitty"])
    assert state.first == 2
    to_play(state, bids=(None, None, None))
    assert state.lanwa and state.digger == 2 and state.bid == 1
    finish_defenders_out(state)
    assert scores(state) == [1, 1, -2]


def test_b6_example_c_stakes_pair_by_pair():
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(3,), post=("reveal",), doubles=("double", "double", "pass"))  # X = seat 1, Y = seat 2
    assert ENGINE.stakes(state) == [0, 24, 12]  # s_X = 3·2·2·2, s_Y = 3·2·2·1
    finish_defenders_out(state)
    assert scores(state) == [-36, 24, 12]


def test_b6_example_d_two_pre_bid_shows_m4():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, reveals=("pass", "reveal", "reveal"), bids=(1, None, None))
    finish_digger_out(state)
    assert scores(state) == [8, -4, -4]


def test_three_players_who_show_make_m8():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, reveals=("reveal", "reveal", "reveal"), bids=(1, None, None))
    assert state.revealed == [0, 1, 2]
    finish_digger_out(state)
    assert scores(state) == [16, -8, -8]


# -- B11.1 明牌 ---------------------------------------------------------------------------------------------------


def test_pre_bid_reveal_each_player_once_in_bidding_order():
    state = new_state({1: ["H4"]})
    assert state.phase == "reveal" and state.first == 1 and state.to_act == 1
    refused(state, {"seat": 0, "type": "reveal"}, "not_your_turn")
    refused(state, {"seat": 1, "type": "bid", "value": 1}, "wrong_phase")  # no bid before every 明牌 decision
    refused(state, {"seat": 1, "type": "double"}, "wrong_phase")
    refused(state, {"seat": 1, "type": "play", "cards": ["H4"]}, "wrong_phase")
    act(state, 1, "reveal")
    refused(state, {"seat": 1, "type": "reveal"}, "not_your_turn")  # once each
    act(state, 2, "pass")
    act(state, 0, "reveal")
    assert state.phase == "bidding" and state.to_act == 1 and state.revealed == [1, 0]
    assert [(d["seat"], d["type"]) for d in state.decisions] == [(1, "reveal"), (2, "pass"), (0, "reveal")]


def test_post_bid_reveal_is_the_diggers_alone_and_once():
    state = new_state({0: ["H4"]})
    decide(state, "pass", "pass", "pass")
    bid(state, None, 2, None)
    assert state.phase == "post_reveal" and state.to_act == 1
    refused(state, {"seat": 0, "type": "reveal"}, "not_your_turn")  # a defender may not show after bidding
    refused(state, {"seat": 2, "type": "reveal"}, "not_your_turn")
    refused(state, {"seat": 1, "type": "double"}, "wrong_phase")
    act(state, 1, "reveal")
    assert state.phase == "doubling" and state.to_act == 1 and state.revealed == [1]
    refused(state, {"seat": 1, "type": "reveal"}, "wrong_phase")  # a second reveal
    decide(state, "pass")
    refused(state, {"seat": 2, "type": "reveal"}, "wrong_phase")  # nor a defender during doubling


def test_post_bid_reveal_is_skipped_when_the_digger_already_showed():
    state = new_state({0: ["H4"]})
    decide(state, "pass", "reveal", "pass")
    bid(state, None, 1, None)
    assert state.digger == 1 and state.phase == "doubling" and state.to_act == 1
    refused(state, {"seat": 1, "type": "reveal"}, "wrong_phase")  # no second reveal
    assert [d["phase"] for d in state.decisions].count("post_reveal") == 0


def test_a_defender_who_showed_before_bidding_still_counts_once():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, reveals=("pass", "reveal", "pass"), bids=(1, None, None), post=("reveal",))
    assert state.revealed == [1, 0]
    finish_digger_out(state)
    assert scores(state) == [8, -4, -4]


# -- B11.2 bidding -------------------------------------------------------------------------------------------------


def test_each_player_calls_once_strictly_higher():
    state = bidding_state()
    assert ENGINE.legal_actions(state, 0) == [{"seat": 0, "type": "pass"}] + [
        {"seat": 0, "type": "bid", "value": v} for v in (1, 2, 3)]
    assert ENGINE.legal_actions(state, 1) == []
    for value in (0, 4, -1, True, "2", 1.0, None):
        refused(state, {"seat": 0, "type": "bid", "value": value}, "bad_bid")
    refused(state, {"seat": 1, "type": "bid", "value": 1}, "not_your_turn")
    refused(state, {"seat": 0, "type": "reveal"}, "wrong_phase")
    refused(state, {"seat": 0, "type": "double"}, "wrong_phase")
    refused(state, {"seat": 0, "type": "play", "cards": ["H4"]}, "wrong_phase")
    bid(state, 2)
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}, {"seat": 1, "type": "bid", "value": 3}]
    refused(state, {"seat": 1, "type": "bid", "value": 2}, "bid_too_low")
    refused(state, {"seat": 1, "type": "bid", "value": 1}, "bid_too_low")
    bid(state, None)
    refused(state, {"seat": 1, "type": "bid", "value": 3}, "not_your_turn")  # no second call
    bid(state, None)
    assert (state.digger, state.bid) == (0, 2)


def test_the_first_bidder_may_pass_and_a_later_bid_wins():
    state = bidding_state()
    bid(state, None, None, 1)
    assert (state.digger, state.bid, state.lanwa) == (2, 1, False)


def test_a_first_bid_of_3_ends_bidding_at_once():
    state = bidding_state()
    bid(state, 3)
    assert state.digger == 0 and len(state.bids) == 1 and state.phase == "post_reveal"


def test_lanwa_digger_is_the_first_bidder_even_off_seat_0():
    state = new_state({2: ["H4"]})
    decide(state, "pass", "pass", "pass")
    bid(state, None, None, None)
    assert (state.digger, state.bid, state.lanwa) == (2, 1, True)


# -- B4.1 / B11.1: the first bidder ------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "kitty", "first"), [
    ({0: ["H4"]}, [], 0),
    ({2: ["H4"]}, [], 2),
    ({1: ["H5"]}, ["H4", "D4", "C4", "S4"], 1),  # ♥4 in the kitty → the ♥5 holder
    ({2: ["H6"], 0: ["H7"]}, ["H4", "H5", "D4", "C4"], 2),  # ♥4 and ♥5 in the kitty → ♥6
    ({2: ["H8"]}, ["H4", "H5", "H6", "H7"], 2),  # the kitty can hide four hearts
])
def test_the_first_bidder_holds_the_lowest_heart_dealt(spec, kitty, first):
    hands, kitty_cards = make_deal(spec, kitty)
    assert first_bidder(hands) == first
    assert ENGINE.first_actor(hands, 0) == first
    for wrong in sorted({0, 1, 2} - {first}):
        with pytest.raises(IllegalAction) as error:
            ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), wrong, hands, kitty_cards))
        assert error.value.code == "bad_setup" and error.value.details["first"] == first
        record = {"format": "fupan.deal/1", "game": "wakeng", "options": {}, "seats": NAMES, "first": wrong,
                  "hands": hands, "kitty": kitty_cards, "context": {}, "actions": []}
        assert check_record(record)["code"] == "bad_setup"
    state = ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), first, hands, kitty_cards))
    assert state.to_act == first


def test_the_lowest_heart_is_lowest_in_wakeng_order():
    # Only the order is at stake here, so bare hands will do: A < 2 < 3, and suits other than ♥ never count.
    assert first_bidder([["H3", "D4"], ["H2", "C4"], ["HA", "S4"]]) == 2
    assert first_bidder([["H3"], ["H2", "D4", "S4", "C4"], ["SA"]]) == 1
    assert first_bidder([["H10"], ["HK"], ["H9", "D4"]]) == 2


def test_a_deals_context_holds_only_its_board_and_the_deck_is_checked():
    hands, kitty = make_deal({0: ["H4"]})
    with pytest.raises(IllegalAction) as error:
        ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), 0, hands, kitty, {"board": 1, "levels": [2, 2]}))
    assert error.value.code == "bad_setup"
    assert ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), 0, hands, kitty, {"board": 3})).board == 3
    short = [hands[0][:-1], hands[1], hands[2]]
    with pytest.raises(IllegalAction) as error:
        ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), 0, short, kitty + [hands[0][-1]]))
    assert error.value.code == "bad_deal"
    jokers = [hands[0][:-1] + ["BJ"], hands[1], hands[2]]
    with pytest.raises(IllegalAction) as error:
        ENGINE.new_deal(DealSetup("wakeng", {}, list(NAMES), 0, jokers, kitty))
    assert error.value.code == "bad_deck"


# -- B4.5: the kitty ------------------------------------------------------------------------------------------------


def test_the_kitty_joins_the_digger_with_no_action_and_becomes_public():
    state = new_state({0: ["H4"]}, kitty=["S3", "D2", "CA", "HK"])
    decide(state, "pass", "pass", "pass")
    for viewpoint in (Viewpoint("public"), Viewpoint("seat", 0), Viewpoint("seat", 1)):
        view = ENGINE.view(state, viewpoint)
        assert view["kitty"] is None and view["digger"] is None and view["stakes"] is None
    assert ENGINE.view(state, Viewpoint("referee"))["kitty"] == ["S3", "D2", "CA", "HK"]
    bid(state, None, 1, None)
    assert set(state.kitty) <= set(state.hands[1]) and len(state.hands[1]) == 20
    assert state.actions == 6  # no action takes the kitty
    for viewpoint in (Viewpoint("public"), Viewpoint("seat", 0), Viewpoint("seat", 2), Viewpoint("referee")):
        view = ENGINE.view(state, viewpoint)
        assert view["kitty"] == ["S3", "D2", "CA", "HK"] and view["digger"] == 1 and view["bid"] == 1
        assert [s["role"] for s in view["seats"]] == ["defender", "digger", "defender"]
        assert [s["count"] for s in view["seats"]] == [16, 20, 16]


# -- B4.7 / B11.3: doubling ------------------------------------------------------------------------------------------


def test_doubling_each_once_digger_first_then_playing_order():
    state = new_state({0: ["H4"]})
    decide(state, "pass", "pass", "pass")
    bid(state, None, None, 2)  # seat 2 digs
    decide(state, "pass")
    assert state.phase == "doubling" and state.to_act == 2
    refused(state, {"seat": 0, "type": "double"}, "not_your_turn")
    refused(state, {"seat": 2, "type": "bid", "value": 3}, "wrong_phase")
    refused(state, {"seat": 2, "type": "play", "cards": [state.hands[2][0]]}, "wrong_phase")
    assert ENGINE.legal_actions(state, 2) == [{"seat": 2, "type": "double"}, {"seat": 2, "type": "pass"}]
    act(state, 2, "pass")
    refused(state, {"seat": 2, "type": "double"}, "not_your_turn")  # once: no second chance, no redouble
    act(state, 0, "double")
    assert state.to_act == 1
    act(state, 1, "double")
    assert state.phase == "play" and state.doubled == [0, 1]
    refused(state, {"seat": state.to_act, "type": "double"}, "wrong_phase")
    assert ENGINE.stakes(state) == [4, 4, 0]  # b·m·d_digger·d_i = 2·1·1·2


# -- B5 / B11.4: play ----------------------------------------------------------------------------------------------


def test_the_h4_holder_after_the_kitty_leads_not_the_first_bidder():
    state = new_state({0: ["H5"]}, kitty=["H4", "D4", "C4", "S4"])
    assert state.first == 0
    to_play(state, bids=(None, 2, None))
    assert state.to_act == 1 and state.leader == 1


def test_the_leader_may_not_pass_and_any_pattern_leads():
    state = new_state({0: ["H4", "S4", "D5", "D6", "D7"]})
    to_play(state, bids=(1, None, None))
    assert state.to_act == 0
    refused(state, {"seat": 0, "type": "pass"}, "must_lead")
    refused(state, {"seat": 0, "type": "play", "cards": []}, "bad_cards")
    refused(state, {"seat": 0, "type": "play", "cards": "H4"}, "bad_cards")
    refused(state, {"seat": 0, "type": "play", "cards": ["H4", "D5"]}, "not_a_pattern")
    refused(state, {"seat": 0, "type": "play", "cards": ["H4", "D5", state.hands[1][0]]}, "card_not_in_hand")
    refused(state, {"seat": 1, "type": "play", "cards": [state.hands[1][0]]}, "not_your_turn")
    refused(state, {"seat": 0, "type": "bid", "value": 2}, "wrong_phase")
    refused(state, {"seat": 0, "type": "discard", "cards": ["H4"]}, "unknown_action")
    refused(state, {"seat": 3, "type": "pass"}, "bad_seat")
    play(state, 0, "H4 D5 D6")
    assert state.last_pattern == ("run", 3, 6)


def test_followers_answer_same_kind_same_size_higher_or_pass_and_stay_in_the_round():
    state = new_state({0: ["H4", "D5", "D9"], 1: ["C4", "CJ", "HK"], 2: ["D7", "SQ", "D3"]})
    to_play(state, bids=(1, None, None))
    play(state, 0, "D5")
    refused(state, {"seat": 1, "type": "play", "cards": ["C4"]}, "does_not_beat")
    act(state, 1, "pass")
    play(state, 2, "D7")
    play(state, 0, "D9")
    play(state, 1, "CJ")  # seat 1 passed once and plays again in the same round
    play(state, 2, "SQ")
    act(state, 0, "pass")
    play(state, 1, "HK")
    passes(state)
    assert state.to_act == 1 and state.last_pattern is None and len(state.rounds) == 1


def test_a_lower_or_other_pattern_does_not_beat():
    state = new_state({0: ["H4", "D8", "C8"], 1: ["D5", "C5", "D9", "C9", "H9"], 2: []})
    to_play(state, bids=(1, None, None))
    play(state, 0, "D8 C8")
    error = refused(state, {"seat": 1, "type": "play", "cards": ["D5", "C5"]}, "does_not_beat")
    assert error.details["last"]["kind"] == "pair"
    refused(state, {"seat": 1, "type": "play", "cards": ["D9"]}, "does_not_beat")
    refused(state, {"seat": 1, "type": "play", "cards": ["D9", "C9", "H9"]}, "does_not_beat")
    play(state, 1, "D9 C9")


def test_the_digger_out_first_wins_and_the_deal_is_over():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(1, None, None))
    finish_digger_out(state)
    result = ENGINE.result(state)
    assert result["digger_won"] and result["seat_facts"]["won"] == [1, 0, 0]
    assert ENGINE.status(state) == {"phase": "finished", "to_act": None, "finished": True}
    refused(state, {"seat": 1, "type": "pass"}, "deal_finished")
    refused(state, {"seat": 1, "type": "play", "cards": [state.hands[1][0]]}, "deal_finished")
    assert ENGINE.legal_actions(state, 1) == []


# -- B3 / B11.5: patterns --------------------------------------------------------------------------------------------


def test_exactly_the_six_pattern_kinds():
    assert pattern("7") == ("single", 1, 7)
    assert pattern("Q Q") == ("pair", 2, 12)
    assert pattern("3 3 3") == ("triple", 3, 16)
    assert pattern("A A A A") == ("quad", 4, 14)
    assert pattern("8 9 T J") == ("run", 4, 11)
    assert pattern("4 4 5 5 6 6") == ("pair_run", 6, 6)
    assert pattern("4 4 5 5 6 6 7 7 8 8 9 9 T T J J Q Q K K") == ("pair_run", 20, 13)  # 10 pairs


@pytest.mark.parametrize("text", [
    "4 4 4 5",  # 三带一
    "4 4 4 5 5",  # 三带二
    "4 4 4 5 5 5",  # 飞机
    "4 4 4 5 5 5 6 7",  # 飞机带翅膀
    "4 4 4 4 5 6",  # 四带二
    "4 4 5 5",  # two pairs
    "4 4 5 5 6",  # mixed widths
    "4 4 5 5 7 7",  # not consecutive
    "4 5 7",
    "Q Q K K A A",  # A never in a pair run
    "K K A A 2 2",
    "A 2 3",
    "2 2 3 3 4 4",
    "4 4 4 5 5 5 6 6 6",  # triple runs are not a pattern
])
def test_no_other_combination_is_a_pattern(text):
    assert parse(cards(text)) is None


def test_runs_compare_by_top_rank_and_length_only():
    assert legal_reply("9 T J Q K", "8 9 T J Q")
    assert not legal_reply("8 9 T J Q", "8 9 T J Q")
    assert not legal_reply("5 5 6 6 7 7", "4 5 6")
    assert not legal_reply("5 6 7", "4 4 5 5 6 6")
    assert legal_reply("J J Q Q K K", "T T J J Q Q")
    assert not legal_reply("3 3 3", "2 2")
    assert legal_reply("3 3 3", "2 2 2") and not legal_reply("2 2 2", "3 3 3")
    assert legal_reply("5 5 5 5", "4 4 4 4") and not legal_reply("3", "4 4 4 4")


def test_quad_is_bomb_switch_makes_a_quad_beat_every_other_kind():
    for previous in ("3", "3 3", "3 3 3", "J Q K", "T T J J Q Q"):
        assert not legal_reply("4 4 4 4", previous)
        assert legal_reply("4 4 4 4", previous, quad_is_bomb=True)
    assert not legal_reply("4 4 4 4", "5 5 5 5", quad_is_bomb=True)  # quads still compare among themselves
    assert not legal_reply("3 3", "4 4 4 4", quad_is_bomb=True)
    state = new_state({0: ["H4", "D3"], 1: ["D5", "C5", "H5", "S5"]}, options={"wk.quadIsBomb": True})
    to_play(state, bids=(1, None, None))
    play(state, 0, "D3")
    play(state, 1, "D5 C5 H5 S5")
    plain = new_state({0: ["H4", "D3"], 1: ["D5", "C5", "H5", "S5"]})
    to_play(plain, bids=(1, None, None))
    play(plain, 0, "D3")
    refused(plain, {"seat": 1, "type": "play", "cards": ["D5", "C5", "H5", "S5"]}, "does_not_beat")


# -- options ---------------------------------------------------------------------------------------------------------


def test_options_defaults_and_bounds():
    assert ENGINE.resolve_options({}) == {"wk.quadIsBomb": False, "wk.mustDig": False, "wk.globalDoubling": False,
                                          "wk.showFactor": 2, "wk.doubleFactor": 2, "wk.tableDeals": 6}
    for deals in (1, 99):
        assert ENGINE.resolve_options({"wk.tableDeals": deals})["wk.tableDeals"] == deals
    for bad in ({"wk.tableDeals": 0}, {"wk.tableDeals": 100}, {"wk.tableDeals": "many"}, {"wk.showFactor": 0},
                {"wk.quadIsBomb": "sometimes"}, {"wk.unknown": True}, []):
        with pytest.raises(IllegalAction) as error:
            ENGINE.resolve_options(bad)
        assert error.value.code == "bad_options", bad


MUST = ["D3", "C3", "H3"]  # 333: 必挖


def test_must_dig_off_by_default_a_333_hand_may_pass():
    state = new_state({0: ["H4"], 1: MUST})
    assert must_dig(state.hands[1])
    decide(state, "pass", "pass", "pass")
    bid(state, None, None, None)
    assert state.lanwa


@pytest.mark.parametrize("held", [MUST, ["D3", "C3", "D2", "C2"]])
def test_must_dig_forces_a_bid_of_3(held):
    state = new_state({0: ["H4"], 1: held}, options={"wk.mustDig": True})
    decide(state, "pass", "pass", "pass")
    bid(state, None)
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "bid", "value": 3}]
    refused(state, {"seat": 1, "type": "pass"}, "must_dig")
    refused(state, {"seat": 1, "type": "bid", "value": 2}, "must_dig")
    bid(state, 3)
    assert (state.digger, state.bid) == (1, 3)


def test_must_dig_timeout_bids_3():
    state = new_state({0: ["H4"], 1: MUST}, options={"wk.mustDig": True})
    decide(state, "pass", "pass", "pass")
    bid(state, None)
    act(state, 1, "timeout")
    assert (state.digger, state.bid) == (1, 3) and state.decisions[-1] == {"seat": 1, "type": "bid",
                                                                          "phase": "bidding", "value": 3}
    assert not must_dig(["D3", "C3", "D2"]) and not must_dig(["D3", "D2", "C2", "H2"])


@pytest.mark.parametrize(("options", "doubles", "stakes"), [
    ({}, ("pass", "double", "pass"), [0, 4, 2]),  # per pair: 2·1·1·2, 2·1·1·1
    ({"wk.globalDoubling": True}, ("pass", "double", "pass"), [0, 4, 4]),  # 2·2¹ on every stake
    ({}, ("double", "double", "pass"), [0, 8, 4]),  # 2·1·2·2, 2·1·2·1
    ({"wk.globalDoubling": True}, ("double", "double", "pass"), [0, 8, 8]),  # 2·2²
    ({"wk.globalDoubling": True}, ("double", "double", "double"), [0, 16, 16]),
    ({"wk.globalDoubling": True}, ("pass", "pass", "pass"), [0, 2, 2]),
    ({"wk.doubleFactor": 3}, ("double", "double", "pass"), [0, 18, 6]),  # B6's doubleFactor as a switch: 2·1·3·3
    ({"wk.doubleFactor": 3, "wk.globalDoubling": True}, ("double", "double", "pass"), [0, 18, 18]),  # 2·3²
])
def test_doubling_per_pair_or_global(options, doubles, stakes):
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"], options=options)
    to_play(state, bids=(2, None, None), doubles=doubles)
    assert ENGINE.stakes(state) == stakes
    finish_digger_out(state)
    assert scores(state) == [stakes[1] + stakes[2], -stakes[1], -stakes[2]]
    assert check(state)["result"]["scores"] == scores(state)


# -- B11.6 timeouts in every phase -----------------------------------------------------------------------------------


def test_timeouts_decline_in_every_decision_phase():
    state = new_state({0: ["H4"]})
    act(state, 0, "timeout")  # 明牌 → no
    decide(state, "reveal", "pass")
    assert state.revealed == [1] and state.decisions[0] == {"seat": 0, "type": "pass", "phase": "reveal"}
    act(state, 0, "timeout")  # bidding → 不叫
    bid(state, None)
    act(state, 2, "timeout")
    assert state.lanwa and state.bids == [(0, None), (1, None), (2, None)]
    assert state.phase == "post_reveal" and state.to_act == 0
    act(state, 0, "timeout")  # post-bid 明牌 → no
    assert state.revealed == [1] and state.phase == "doubling"
    for seat in (0, 1, 2):
        act(state, seat, "timeout")  # 加倍 → no
    assert state.doubled == [] and state.phase == "play"
    assert [d["type"] for d in state.decisions] == ["pass"] * 1 + ["reveal", "pass"] + ["pass"] * 7


def test_a_leader_timeout_plays_the_lowest_card_by_rank_then_suit():
    state = new_state({0: ["H4", "D4", "S4", "D5"], 1: ["C4"]})
    to_play(state, bids=(1, None, None))
    act(state, 0, "timeout")
    assert state.played[0] == ["D4"]  # ♦ < ♣ < ♥ < ♠
    act(state, 1, "timeout")  # following → pass
    assert state.current_round[-1] == {"seat": 1, "type": "pass"} and state.played[1] == []
    act(state, 2, "timeout")
    assert state.to_act == 0 and state.last_pattern is None  # two passes: seat 0 leads again
    act(state, 0, "timeout")
    assert state.played[0] == ["D4", "H4"]


def test_a_leader_timeout_with_suits_tied_on_rank():
    state = new_state({0: ["H4", "S4", "C5"], 1: ["C4", "D4", "D5"]}, kitty=["SA", "HA", "CA", "DA"])
    to_play(state, bids=(1, None, None))
    play(state, 0, "H4")
    passes(state)
    act(state, 0, "timeout")
    assert state.played[0] == ["H4", "S4"]  # lowest rank first: the ♠4 before ♣5
    passes(state)
    act(state, 0, "timeout")
    assert state.played[0][-1] == "C5"


def test_a_timeout_ending_the_deal_finishes_it():
    state = new_state({0: ["H4"] + pairs(RUN_RANKS[1:], "HS")[:15]}, kitty=["S4", "D4", "C4", "SK"])
    # seat 0: ♥4 and 15 more; with the kitty 20; it leads everything but the last card, then times out on it.
    to_play(state, bids=(1, None, None))
    while len(state.hands[0]) > 1:
        code = min(state.hands[0], key=card_order)
        act(state, 0, "play", cards=[code])
        if state.phase == "play" and state.last_seat == 0:
            passes(state)
    act(state, 0, "timeout")
    assert state.phase == "finished" and state.winner == 0 and scores(state) == [2, -1, -1]


# -- fouls (B9) -----------------------------------------------------------------------------------------------------


def test_fouls_are_recorded_in_any_phase_and_carry_no_points():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    foul = {"code": "left_seat", "note": "未经允许离座"}
    act(state, 2, "foul", **foul)  # before 明牌, not seat 2's turn: a referee's decision
    refused(state, {"seat": 1, "type": "foul", "code": "smoking", "note": "吸烟", "penalty": 2}, "bad_action")
    refused(state, {"seat": 1, "type": "foul", "note": "no code"}, "bad_action")
    to_play(state, bids=(2, None, None))
    act(state, 1, "foul", code="smoking", note="吸烟")
    finish_digger_out(state)
    act(state, 1, "foul", code="left_seat", note="提前离座")  # after the end: recorded, changes nothing
    assert scores(state) == [4, -2, -2]
    at = [i for i, a in enumerate(state.record["actions"]) if a["type"] == "foul"]
    assert [(f["seat"], f["code"], f["at"]) for f in state.fouls] == [(2, "left_seat", at[0]), (1, "smoking", at[1]),
                                                                      (1, "left_seat", at[2])]
    assert all("penalty" not in f for f in state.fouls)
    assert check(state) == {"ok": True, "result": {"scores": [4, -2, -2]}}


# -- views ----------------------------------------------------------------------------------------------------------


def test_views_show_exposed_hands_to_all_and_counts_publicly():
    state = new_state({0: ["H4"]}, kitty=["S3", "D2", "CA", "HK"])
    act(state, 0, "pass")
    act(state, 1, "reveal")
    public = ENGINE.view(state, Viewpoint("public"))
    assert ["hand" in s for s in public["seats"]] == [False, True, False]
    assert public["seats"][1]["hand"] == sorted(state.hands[1], key=card_order, reverse=True)
    assert [s["count"] for s in public["seats"]] == [16, 16, 16]
    assert [s["exposed"] for s in public["seats"]] == [False, True, False]
    own = ENGINE.view(state, Viewpoint("seat", 2))
    assert ["hand" in s for s in own["seats"]] == [False, True, True]
    referee = ENGINE.view(state, Viewpoint("referee"))
    assert all("hand" in s for s in referee["seats"]) and referee["kitty"] == ["S3", "D2", "CA", "HK"]
    assert public["kitty"] is None and own["kitty"] is None
    assert public["first"] == 0 and public["decisions"] == [{"seat": 0, "type": "pass", "phase": "reveal"},
                                                            {"seat": 1, "type": "reveal", "phase": "reveal"}]
    act(state, 2, "pass")
    bid(state, None, None, 2)  # seat 2 digs, its hand hidden but its count and the kitty public
    public = ENGINE.view(state, Viewpoint("public"))
    assert public["kitty"] == ["S3", "D2", "CA", "HK"] and public["digger"] == 2
    assert [s["count"] for s in public["seats"]] == [16, 16, 20] and "hand" not in public["seats"][2]
    act(state, 2, "reveal")
    public = ENGINE.view(state, Viewpoint("public"))
    assert ["hand" in s for s in public["seats"]] == [False, True, True]
    assert set(public["kitty"]) <= set(public["seats"][2]["hand"])
    assert public["stakes"] == [8, 8, 0]  # b 2 · m 4


def test_views_follow_the_play_and_show_the_result():
    deck = digger_out(0)
    state = new_state(deck["spec"], deck["kitty"], board=2)
    to_play(state, bids=(2, None, None), doubles=("pass", "double", "pass"))
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["phase"] == "play" and view["to_act"] == 0 and view["doubled"] == [1] and view["board"] == 2
    assert [s["doubled"] for s in view["seats"]] == [False, True, False] and view["result"] is None
    finish_digger_out(state)
    view = ENGINE.view(state, Viewpoint("seat", 1))
    assert view["result"]["scores"] == [6, -4, -2] and view["result"]["board"] == 2
    assert view["seats"][0]["count"] == 0 and len(view["seats"][0]["played"]) == 20
    assert view["last_round"][0]["pattern"]["kind"] == "pair_run" and view["rounds_played"] == 1


# -- refusals leave the state unchanged, whatever the phase ---------------------------------------------------------


def test_every_refusal_in_every_phase_leaves_the_state_unchanged():
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    junk = [{"seat": s, "type": t, **f} for s in (0, 1, 2) for t, f in (
        ("bid", {"value": 1}), ("bid", {"value": 3}), ("bid", {"value": 7}), ("reveal", {}), ("double", {}),
        ("pass", {}), ("play", {"cards": ["H4"]}), ("play", {"cards": ["S3"]}), ("play", {"cards": ["ZZ"]}),
        ("foul", {"code": "x", "note": "y", "penalty": 1}), ("nonsense", {}))]
    junk += [{"seat": 5, "type": "pass"}, "pass", {"type": "pass"}]
    script = [("pass",), ("reveal",), ("pass",), ("bid", 2), ("pass",), ("bid", 3), ("pass",), ("double",),
              ("pass",), ("pass",)]
    for step in script:
        for action in junk:
            state = SCRIPT.undone(state, action)  # an accepted junk action is undone: the script decides the deal
        if step[0] == "bid":
            act(state, state.to_act, "bid", value=step[1])
        else:
            act(state, state.to_act, step[0])
    assert state.phase == "play" and state.digger == 2 and state.bid == 3
    for action in junk:
        state = SCRIPT.undone(state, action)


def test_the_view_names_the_rounds_leader_each_plays_seat_and_its_pattern():
    """What the replay viewer reads of a shedding game's round (replay_ui/shared/static/fupan.js `currentRound`:
    `round.leader`, each play's `seat` and `pattern`, then `rounds_played` and `last_round`): the digger leads AAA
    (a triple of A, B2's value 14), the two others pass, and the digger leads the next round."""
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state, bids=(2, None, None))
    d = state.digger
    play(state, d, "A A A")
    triple = {"kind": "triple", "size": 3, "key": 14, "zh": "三条", "en": "triple"}
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["round"]["leader"] == d and view["rounds_played"] == 0 and view["last_round"] is None
    assert [(p["seat"], p["type"], p["pattern"]) for p in view["round"]["plays"]] == [(d, "play", triple)]
    passes(state)
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["rounds_played"] == 1 and view["round"] == {"leader": d, "plays": []}
    assert [(p["seat"], p["type"]) for p in view["last_round"]] == [(d, "play"), ((d + 1) % 3, "pass"),
                                                                    ((d + 2) % 3, "pass")]


# -- what the turn offers and what the view shows, phase by phase (B4–B5, B11.6) -----------------------------------


def test_each_phase_offers_its_own_choices_to_the_seat_to_act_only():
    """B4: 明牌 or not before bidding; a bid above the last one or 不叫; the digger's 明牌 after the kitty; 加倍
    or not; in play a follower may pass (过牌) and the leader may not; a finished deal offers nothing."""
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    d = state.to_act
    assert ENGINE.legal_actions(state, d) == [{"seat": d, "type": "reveal"}, {"seat": d, "type": "pass"}]
    assert ENGINE.legal_actions(state, (d + 1) % 3) == []
    decide(state, "pass", "pass", "pass")
    assert ENGINE.legal_actions(state, d) == [{"seat": d, "type": "pass"}] + [
        {"seat": d, "type": "bid", "value": v} for v in (1, 2, 3)]
    bid(state, 2)
    y = (d + 1) % 3
    assert ENGINE.legal_actions(state, y) == [{"seat": y, "type": "pass"}, {"seat": y, "type": "bid", "value": 3}]
    bid(state, None, None)
    assert state.phase == "post_reveal"
    assert ENGINE.legal_actions(state, d) == [{"seat": d, "type": "reveal"}, {"seat": d, "type": "pass"}]
    decide(state, "pass")
    assert ENGINE.legal_actions(state, d) == [{"seat": d, "type": "double"}, {"seat": d, "type": "pass"}]
    decide(state, "pass", "pass", "pass")
    leader = state.to_act
    assert ENGINE.legal_actions(state, leader) == []  # the leader must play
    play(state, leader, "A A A")
    follower = state.to_act
    assert ENGINE.legal_actions(state, follower) == [{"seat": follower, "type": "pass"}]


def test_a_hand_that_must_dig_under_must_dig_bids_freely_without_it():
    """B4.8: 必挖 only under `wk.mustDig` (off by default)."""
    state = new_state({0: ["H4"], 1: ["D3", "C3", "H3"]})
    decide(state, "pass", "pass", "pass")
    bid(state, None)
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}] + [
        {"seat": 1, "type": "bid", "value": v} for v in (1, 2, 3)]


def test_the_view_shows_each_decision_and_the_digger_only_once_the_kitty_is_taken():
    """B4: every decision is announced (a 不叫 carries no value); the kitty, and with it who digs, are public once
    bidding is over (B4.5); a seat's role is named from then on."""
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    d = state.to_act
    decide(state, "pass", "pass", "pass")
    bid(state, 1)
    for viewpoint in (Viewpoint("public"), Viewpoint("seat", d)):
        view = ENGINE.view(state, viewpoint)
        assert view["viewpoint"] == str(viewpoint) and view["digger"] is None and view["stakes"] is None
        assert [s["role"] for s in view["seats"]] == [None, None, None]
        assert [s["name"] for s in view["seats"]] == NAMES and [s["seat"] for s in view["seats"]] == [0, 1, 2]
    bid(state, None, None)
    decide(state, "pass")  # the digger's 明牌 after the kitty: no
    act(state, d, "double")
    decide(state, "pass", "pass")
    act(state, (d + 1) % 3, "foul", code="talking", note="x")
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["digger"] == d and view["bid"] == 1 and view["lanwa"] is False and view["revealed"] == []
    assert [s["role"] for s in view["seats"]] == ["digger" if s == d else "defender" for s in range(3)]
    assert view["decisions"] == [
        {"seat": d, "type": "pass", "phase": "reveal"}, {"seat": (d + 1) % 3, "type": "pass", "phase": "reveal"},
        {"seat": (d + 2) % 3, "type": "pass", "phase": "reveal"},
        {"seat": d, "type": "bid", "phase": "bidding", "value": 1},
        {"seat": (d + 1) % 3, "type": "pass", "phase": "bidding"},
        {"seat": (d + 2) % 3, "type": "pass", "phase": "bidding"},
        {"seat": d, "type": "pass", "phase": "post_reveal"}, {"seat": d, "type": "double", "phase": "doubling"},
        {"seat": (d + 1) % 3, "type": "pass", "phase": "doubling"},
        {"seat": (d + 2) % 3, "type": "pass", "phase": "doubling"}]
    assert [(f["seat"], f["code"]) for f in view["fouls"]] == [((d + 1) % 3, "talking")]


def test_a_card_not_held_is_refused_naming_whose_hand():
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state)
    leader = state.to_act
    other = next(c for c in state.hands[(leader + 1) % 3])
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": leader, "type": "play", "cards": [other]})
    assert error.value.code == "card_not_in_hand" and error.value.details["seat"] == leader


def test_an_action_of_another_phase_is_refused_naming_the_choice_of_this_one():
    """B4–B5: each phase has its own choice; a refusal says which, in both languages."""
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    d = state.to_act
    steps = [("reveal", "double", ["reveal", "pass"], "明牌"), ("bidding", "reveal", ["bid", "pass"], "叫分"),
             ("post_reveal", "double", ["reveal", "pass"], "明牌"), ("doubling", "reveal", ["double", "pass"], "加倍"),
             ("play", "double", ["play", "pass"], "出牌")]
    moves = {"reveal": lambda: decide(state, "pass", "pass", "pass"), "bidding": lambda: bid(state, 1, None, None),
             "post_reveal": lambda: decide(state, "pass"), "doubling": lambda: decide(state, "pass", "pass", "pass")}
    for phase, wrong, named, named_zh in steps:
        assert state.phase == phase
        error = refused(state, {"seat": state.to_act, "type": wrong}, "wrong_phase")
        assert all(word in error.message for word in named) and named_zh in error.message_zh
        if phase in moves:
            moves[phase]()
    assert state.to_act == d or state.phase == "play"


def test_a_refused_play_names_its_cards_as_cards():
    """A refusal names cards as ♠A ♥10, never as codes."""
    deck = defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"])
    to_play(state)
    leader = state.to_act
    odd = take(state, leader, "A 4")
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": leader, "type": "play", "cards": odd})
    assert error.value.code == "not_a_pattern" and odd[0] not in error.value.message
    assert any(suit in error.value.message for suit in "♠♥♣♦")
    play(state, leader, "A A A")
    follower = state.to_act
    low = [c for c in state.hands[follower]][:1]
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": follower, "type": "play", "cards": low})
    assert error.value.code == "does_not_beat" and low[0] not in error.value.message_zh
    assert any(suit in error.value.message_zh for suit in "♠♥♣♦")
