"""升级's legality rule by rule (docs/rules/shengji.md §3.4–3.8, §3.13, "Engine additions"; docs/record-format.md's
升级 section): what a timeout plays, how a refused follow is worded for the record, leads, throws and their forced
part, tractors, declarations and the kitty, the turn's choices and the views — each asserted from the documents'
words on small hands, never from the engine's own answer (L = 10, trump ♠ unless stated)."""

from __future__ import annotations

from typing import Any

import pytest
from test_shengji_rules import ENGINE, deal_with, declare, final_round, play, refused, table

from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup, Viewpoint
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


def test_a_timed_out_follow_of_a_tractor_plays_the_lower_of_two_tractors():
    # "the lowest legal cards when following": ♥22♥33 and ♥66♥77 are both legal; the lower one is played.
    hands = [["HQ", "HQ", "HK", "HK"], ["H2", "H2", "H3", "H3", "H6", "H6", "H7", "H7", "H9"], ["D4"], ["D5"]]
    state = table(hands, leader=0)
    play(state, 0, ["HQ", "HQ", "HK", "HK"])
    assert timeout(state, 1) == ["H2", "H2", "H3", "H3"]


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


# -- leads: a single, a pair or a tractor is never a throw; 抠底 on a single lead (§3.6, §3.9) ------------------


@pytest.mark.parametrize("lead", [["H8", "H8"], ["H8", "H8", "H9", "H9"]])
def test_a_pair_or_tractor_lead_stands_even_when_someone_holds_a_higher_one(lead):
    # Only a throw (several components) can fail (§3.6); under `flat10` a failed throw would cost 10.
    hands = [lead + ["D2"], ["HA", "HA", "HK", "HK", "C3"], ["D4"] * 5, ["D5"] * 5]
    state = table(hands, leader=0, options={"sj.throwPenalty": "flat10"})
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, {"seat": 0, "type": "play", "cards": lead, "forced": lead[:2]})
    assert caught.value.code == "throw_not_failed"
    play(state, 0, lead)
    assert state.trick == [{"seat": 0, "cards": lead}] and state.penalties == []


@pytest.mark.parametrize(("basis", "factor"), [("leadFormat", 2), ("winnerCards", 2)])
def test_attackers_winning_the_last_trick_on_a_single_lead_double_the_kitty(basis, factor):
    # §3.9: a single's 抠底 is ×2 on either basis (n = 0 pairs).
    hands = [["H3"], ["HA"], ["H2"], ["H4"]]
    state = table(hands, dealer=0, leader=0, buried=["D5", "DK", "D2", "D3", "D4", "D6", "D7", "D8"],
                  options={"sj.kittyBasis": basis})
    for seat in range(4):
        play(state, seat, hands[seat])
    points = ENGINE.result(state)["points"]
    assert points["kitty_multiplier"] == factor and points["kitty_bonus"] == 15 * factor


def test_a_failed_throw_of_equal_tops_plays_the_part_with_fewer_cards():
    # §3.6 [REC]: the beatable part with the lowest top, then the fewer cards. ♣1010 and ♥10 are 副级 trumps of
    # one rank; seat 2's ♠LJ pair beats the pair and its LJ the single: the single ♥10 is played, 2 cards go back.
    state = table([["C10", "C10", "H10", "D2"], ["C3"] * 3, ["LJ", "LJ", "D4"], ["D5"] * 3], leader=0, dealer=0)
    play(state, 0, ["C10", "C10", "H10"])
    lead = state.trick[0]
    assert lead["cards"] == ["H10"] and lead["attempted"] == ["C10", "C10", "H10"] and lead["blockers"] == [2]
    assert lead["failed_throw"] and lead["penalty"] == 20  # S004: 10 per card taken back
    assert {k: state.penalties[-1][k] for k in ("seat", "reason", "points")} == {
        "seat": 0, "reason": "failed_throw", "points": 20}
    assert sorted(state.hands[0]) == ["C10", "C10", "D2"]


THROW = ["H8", "H8", "H9", "H9", "HA"]  # a tractor ♥88♥99 and the single ♥A: only the tractor can be beaten


@pytest.mark.parametrize(("hearts", "stands"), [
    (["HJ", "HJ", "HQ", "HQ"], False),  # a higher 2-pair tractor beats it
    (["HJ", "HJ", "HQ", "HQ", "HK", "HK"], False),  # a longer run holds a higher tractor of that length
    (["HJ", "HJ", "HK", "HK"], True),  # two higher pairs, not adjacent: no tractor
    (["HK", "HK"], True),  # one higher pair is no tractor
    (["H2", "H2", "H3", "H3", "HK", "HK"], True),  # a lower tractor and a higher lone pair
])
def test_a_throw_with_a_tractor_fails_only_against_a_higher_tractor_of_its_length(hearts, stands):
    # §3.6: a throw fails when another player holds, in that suit, a component of the same shape that ranks
    # higher; a tractor is ≥ 2 pairs of adjacent ranks (§3.3). The forced part is then the tractor.
    state = table([THROW + ["D2"], ["C3"] * 5, hearts + ["D4"], ["D5"] * 5], leader=0, dealer=0)
    play(state, 0, THROW)
    lead = state.trick[0]
    if stands:
        assert lead == {"seat": 0, "cards": THROW}
    else:
        assert lead["cards"] == ["H8", "H8", "H9", "H9"] and lead["blockers"] == [2] and lead["penalty"] == 10


def test_a_throw_with_a_three_pair_tractor_stands_against_a_higher_two_pair_one():
    throw = ["H4", "H4", "H5", "H5", "H6", "H6", "HA"]
    state = table([throw + ["D2"], ["C3"] * 7, ["HQ", "HQ", "HK", "HK", "D4", "D4", "D6", "D6"], ["D5"] * 7],
                  leader=0, dealer=0)
    play(state, 0, throw)
    assert state.trick[0] == {"seat": 0, "cards": throw}


def diamond_trick(lead: list[str], seconds: list[str], thirds: list[str]) -> Any:
    """Seat 0 leads `lead` in ♦ and nobody else holds a diamond (the rest are buried), so a throw stands; seats 1
    and 2 play the cards given, seat 3 hearts. The state after the trick."""
    buried = [c for c in full_deck(2, True) if c.startswith("D") and c != "D10"]
    for code in lead:
        buried.remove(code)
    hearts = (["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9", "HJ", "HQ"] * 2)[: len(lead)]
    state = table([lead, seconds, thirds, hearts], leader=0, buried=buried)
    for seat, cards in enumerate([lead, seconds, thirds, hearts]):
        play(state, seat, cards)
    return state


TWO_TRACTORS = ["D2", "D2", "D3", "D3", "D4", "D4", "D6", "D6", "D7", "D7"]  # tractors of 3 and 2 pairs


@pytest.mark.parametrize(("trumps", "winner"), [
    (["S3", "S3", "S4", "S4", "S5", "S5", "S7", "S7", "S8", "S8"], 1),  # both tractors: it wins
    (["S3", "S3", "S4", "S4", "S5", "S5", "S7", "S7", "S9", "S9"], 0),  # ♠77 ♠99 is no tractor: a discard
    (["S3", "S3", "S4", "S4", "S6", "S6", "S7", "S7", "S8", "S8"], 1),  # the 3-pair tractor listed second
    (["S3", "S3", "S4", "S4", "S5", "S5", "S6", "S6", "S8", "S8"], 0),  # a 4-pair run and a pair: one tractor
])
def test_trumping_a_throw_of_two_tractors_needs_both(trumps, winner):
    # §3.8: a matching play holds every tractor of the lead (same lengths, disjoint).
    clubs = ["C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "CJ", "CQ"]
    state = diamond_trick(TWO_TRACTORS, trumps, clubs)
    assert state.tricks[0]["winner"] == winner


def test_equal_off_level_pairs_in_a_throw_are_taken_in_the_order_listed():
    # §3.14a.3: AA ♥TT ♣TT ♠TT (trump ♠) — the tractor takes the 副级 pair listed first, here ♥1010.
    from domain.games.shengji.cards import decompose, order_for
    parts = decompose(["SA", "SA", "H10", "H10", "C10", "C10", "S10", "S10"], order_for(10, "S").value)
    assert [(p.pairs, sorted(set(p.cards))) for p in parts] == [(3, ["H10", "S10", "SA"]), (1, ["C10"])]


def test_an_equal_off_level_pair_does_not_block_a_throw():
    # §3.6: a throw fails only against a component that ranks higher; ♥1010 equals ♣1010 (both 副级).
    throw = ["C10", "C10", "BJ"]
    state = table([throw + ["D2"], ["H10", "H10", "C3", "C4"], ["C5"] * 4, ["C6"] * 4], leader=0)
    play(state, 0, throw)
    assert state.trick[0] == {"seat": 0, "cards": throw}


def test_two_trumps_of_a_two_tractor_throw_compare_by_their_longer_tractor():
    # §3.8: matching plays compare by the best tractor of the lead's longest length — here the 3-pair one.
    # Seat 1's 3-pair tractor ♠88♠99♠JJ beats seat 2's ♠44♠55♠66, though seat 2's 2-pair
    # tractor (♠KK♠AA) is higher than seat 1's (♠22♠33).
    first = ["S8", "S8", "S9", "S9", "SJ", "SJ", "S2", "S2", "S3", "S3"]
    second = ["S4", "S4", "S5", "S5", "S6", "S6", "SK", "SK", "SA", "SA"]
    state = diamond_trick(TWO_TRACTORS, first, second)
    assert state.tricks[0]["winner"] == 1


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


# -- how a play reads (§3.6–3.8; the pad shows it, docs/pad.md) ---------------------------------------------------


# The words of §3.3–3.7 (单张, 对子, 拖拉机, 甩牌; 跟牌, 毙 with a trump, 垫) in both languages, as the pad shows them.
WORDS = {"single": ("单张", "single"), "pair": ("对子", "pair"), "tractor": ("拖拉机", "tractor"),
         "throw": ("甩牌", "throw"), "follow": ("跟牌", "follows suit"), "trump": ("毙牌（主牌）", "trumps"),
         "discard": ("垫牌", "discards")}


def read(state: Any, seat: int, cards: list[str]) -> str | None:
    action = {"seat": seat, "type": "play", "cards": cards}
    ENGINE.apply(state, action)
    reading = ENGINE.reading(state, action)
    if reading is None:
        return None
    zh, en = WORDS[reading["kind"]]
    assert reading == {"kind": reading["kind"], "zh": zh, "en": en}
    return reading["kind"]


@pytest.mark.parametrize(("lead", "kind"), [
    (["H8"], "single"), (["H8", "H8"], "pair"), (["H8", "H8", "H9", "H9"], "tractor"),
    (["HJ", "H9", "H9"], "throw"),  # ♥9 is beaten by nobody's hearts, ♥J neither: a valid throw
    (["HA", "HA", "HK"], "throw"),
])
def test_a_lead_reads_as_a_single_a_pair_a_tractor_or_a_throw(lead, kind):
    state = table([lead + ["D2"], ["C3", "C4"], ["C5", "C6"], ["C7", "C8"]], leader=0)
    assert read(state, 0, lead) == kind


def test_a_failed_throw_reads_as_failed_naming_the_part_played():
    state = table([["HA", "H3", "D2"], ["H4", "C4"], ["C5", "C6"], ["C7", "C8"]], leader=0)
    action = {"seat": 0, "type": "play", "cards": ["HA", "H3"]}
    ENGINE.apply(state, action)
    reading = ENGINE.reading(state, action)
    # The pad shows it as is: cards as a person reads them (♥3), never a code like H3.
    assert reading == {"kind": "failed_throw", "zh": "甩牌失败：只出 ♥3", "en": "failed throw: only ♥3"}


def test_a_failed_trump_throw_names_its_jokers_in_each_language():
    # BJ + LJ: seat 1's other BJ beats the little joker only, which is then played alone.
    state = table([["BJ", "LJ", "D2"], ["BJ", "C4"], ["C5", "C6"], ["C7", "C8"]], leader=0)
    action = {"seat": 0, "type": "play", "cards": ["BJ", "LJ"]}
    ENGINE.apply(state, action)
    assert state.trick[0]["cards"] == ["LJ"]
    reading = ENGINE.reading(state, action)
    assert reading == {"kind": "failed_throw", "zh": "甩牌失败：只出 小王", "en": "failed throw: only Little Joker"}


@pytest.mark.parametrize(("follow", "kind"), [
    (["H4", "H5"], "follow"),  # hearts on hearts
    (["S3", "S4"], "trump"),  # void in hearts: all trumps
    (["C3", "C4"], "discard"),
    (["S3", "C3"], "discard"),  # a trump and a club: neither following nor a trump play
])
def test_a_follow_reads_as_following_suit_trumping_or_discarding(follow, kind):
    hearts = [c for c in follow if c[0] == "H"]
    second = follow + ([] if hearts else ["D9"])
    state = table([["H8", "H8", "D2"], second, ["H6", "H7"], ["HJ", "HQ"]], leader=0)
    play(state, 0, ["H8", "H8"])
    assert read(state, 1, follow) == kind


def test_the_play_that_closes_a_trick_still_reads_and_other_actions_do_not():
    state = table([["H8", "D2"], ["H3", "D3"], ["S3", "D4"], ["C3", "D5"]], leader=0)
    play(state, 0, ["H8"])
    play(state, 1, ["H3"])
    play(state, 2, ["S3"])
    assert read(state, 3, ["C3"]) == "discard"  # the trick is closed: read from the last trick
    assert ENGINE.reading(state, {"seat": 2, "type": "play", "cards": ["S3"]})["kind"] == "trump"
    assert ENGINE.reading(state, {"seat": 0, "type": "play", "cards": ["H8"]})["kind"] == "single"
    assert ENGINE.reading(state, {"seat": 2, "type": "timeout"}) is None
    fresh = table([["H8", "D2"], ["H3", "D3"], ["S3", "D4"], ["C3", "D5"]], leader=0)
    assert ENGINE.reading(fresh, {"seat": 1, "type": "play", "cards": ["H3"]}) is None  # nothing played yet
    play(fresh, 0, ["H8"])
    assert ENGINE.reading(fresh, {"seat": 1, "type": "play", "cards": ["H3"]}) is None  # seat 1 not yet


# -- a card not in the hand names whose hand it is (docs/record-format.md "Seats") ---------------------------------


def not_in_hand(state: Any, action: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, action)
    assert caught.value.code == "card_not_in_hand" and caught.value.details["seat"] == action["seat"]
    assert caught.value.mentions_seats


def test_a_card_the_seat_does_not_hold_is_refused_naming_the_seat():
    state = table([["H8", "D2"], ["H3", "D3"], ["S3", "D4"], ["C3", "D5"]], leader=0,
                  options={"sj.illegalPlay": "adjudicate"})
    not_in_hand(state, {"seat": 0, "type": "play", "cards": ["HA"]})
    play(state, 0, ["H8"])
    not_in_hand(state, {"seat": 1, "type": "play", "cards": ["HA"]})
    not_in_hand(state, {"seat": 1, "type": "irregularity", "kind": "revoke", "cards": ["C9"]})


# -- views ("Engine additions": hands to their own seat and the referee; the kitty and the buried cards to the dealer
# once taken and to the referee, to all once the deal is over; the cards turned up for trump to all) -------------


def test_while_dealing_each_seat_has_received_what_the_dealing_order_says():
    # docs/record-format.md "Declaration order": seat s (offset o from `first`) holds r cards while cards
    # 4(r−1)+o+1 … 4r+o are out. With `first` = 1, seat 1 is offset 0: its 5th card is card 17 of the deal, when
    # the other three hold 4 each.
    state = deal_with({1: ["S2", "S3", "S4", "S5", "H10"]}, first=1)
    declare(state, 1, ["H10"], 5)
    assert state.dealt == 17
    view = ENGINE.view(state, Viewpoint("referee"))
    received = {s["seat"]: s["received"] for s in view["seats"]}
    assert received == {1: 5, 2: 4, 3: 4, 0: 4}
    assert all(s["count"] == received[s["seat"]] for s in view["seats"])
    assert sorted(view["seats"][1]["hand"]) == sorted(state.dealt_hands[1][:5])
    assert [s["team"] for s in view["seats"]] == [0, 1, 0, 1]
    assert all(s["role"] is None for s in view["seats"])  # 抢庄: nobody deals yet
    assert view["attacker_points"] is None and view["dealer"] is None and view["result"] is None
    assert view["declarations"] == [{"seat": 1, "cards": ["H10"], "strength": 1, "trump": "H", "received": 5}]
    assert view["level"] == 10 and view["level_rank"] == "10" and view["trump"] is None
    assert view["trump_zh"] is None and view["trump_en"] is None and view["first"] == 1 and view["dealt"] == 17
    seat2 = ENGINE.view(state, Viewpoint("seat", 2))
    assert "hand" in seat2["seats"][2] and all("hand" not in s for s in seat2["seats"] if s["seat"] != 2)


def test_the_kitty_and_the_buried_cards_through_the_deal():
    state = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 9], "dealer": 0, "deal_number": 3})
    declare(state, 0, ["H10"], 1)
    assert ENGINE.view(state, Viewpoint("seat", 0))["kitty"] is None  # the dealer takes it after the declarations
    final_round(state)
    for viewer in (Viewpoint("public"), Viewpoint("seat", 0), Viewpoint("seat", 1)):
        assert ENGINE.view(state, viewer)["buried"] is None  # nothing buried yet
    buried = state.hands[0][-8:]
    ENGINE.apply(state, {"seat": 0, "type": "bury", "cards": buried})
    dealer, referee = ENGINE.view(state, Viewpoint("seat", 0)), ENGINE.view(state, Viewpoint("referee"))
    assert sorted(dealer["buried"]) == sorted(buried) == sorted(referee["buried"])
    assert dealer["kitty"] == state.kitty == referee["kitty"]
    for other in (Viewpoint("public"), Viewpoint("seat", 1), Viewpoint("seat", 2)):
        seen = ENGINE.view(state, other)
        assert seen["buried"] is None and seen["kitty"] is None
    assert [s["role"] for s in dealer["seats"]] == ["dealer", "attacker", "dealer_team", "attacker"]
    assert dealer["trump"] == "H" and dealer["trump_zh"] == "红桃" and dealer["trump_en"] == "hearts"
    assert dealer["attacker_points"] == 0 and dealer["dealer"] == 0
    assert dealer["trick"] == {"leader": 0, "plays": [], "winning": None}  # the dealer leads the first trick
    assert [(s["name"], s["received"], s["count"]) for s in dealer["seats"]] == [
        ("甲", 25, 25), ("乙", 25, 25), ("丙", 25, 25), ("丁", 25, 25)]
    assert dealer["deal_number"] == 3 and dealer["levels"] == [10, 9] and dealer["viewpoint"] == "seat:0"
    while state.phase != "finished":
        ENGINE.apply(state, {"seat": state.to_act, "type": "timeout"})
    public = ENGINE.view(state, Viewpoint("public"))
    assert sorted(public["buried"]) == sorted(buried) and public["kitty"] == state.kitty
    assert public["result"] == ENGINE.result(state) and public["attacker_points"] == state.captured[1]
    assert public["tricks_played"] == 25 and public["last_trick"] == state.tricks[-1]


def test_the_referee_sees_the_last_trick_even_where_the_seats_may_not_review_it():
    hands = [["S3", "S5"], ["S4", "S6"], ["S7", "S8"], ["S9", "SJ"]]
    state = table(hands, options={"sj.trickReview": "none"})
    for seat in range(4):
        play(state, seat, [hands[seat][0]])
    assert ENGINE.view(state, Viewpoint("seat", 0))["last_trick"] is None
    assert ENGINE.view(state, Viewpoint("referee"))["last_trick"] == state.tricks[0]


def test_the_current_trick_shows_its_plays_and_who_is_winning_it():
    state = table([["H8", "D2"], ["HA", "D3"], ["H3", "D4"], ["C3", "D5"]], leader=0)
    play(state, 0, ["H8"])
    play(state, 1, ["HA"])
    trick = ENGINE.view(state, Viewpoint("public"))["trick"]
    assert trick == {"leader": 0, "plays": [{"seat": 0, "cards": ["H8"]}, {"seat": 1, "cards": ["HA"]}],
                     "winning": 1}


def test_the_kitty_cards_turned_up_for_trump_are_shown_to_everyone():
    state = deal_with({}, kitty=["C4", "LJ", "H9", "S2", "S3", "S4", "S5", "S6"], first=0,
                      context={"levels": [10, 10], "dealer": 0}, options={"sj.preset": "s004"})
    final_round(state)  # nobody declares: the 1st kitty card's suit (S004)
    for viewer in (Viewpoint("public"), Viewpoint("seat", 3)):
        seen = ENGINE.view(state, viewer)
        assert seen["kitty_shown"] == ["C4"] and seen["trump"] == "C" and seen["kitty"] is None


# -- what a recorder is offered (docs/pad.md; docs/ARCHITECTURE.md `offered_actions`) ----------------------------


def kinds(offers: list[dict[str, Any]]) -> list[str]:
    return sorted({o["type"] if o["type"] != "irregularity" else o["kind"] for o in offers})


PLAIN_25 = [s + r for s in "SHCD" for r in ("2", "3", "4", "5", "6", "7")] + ["SA"]  # no 10, no joker


def test_while_dealing_a_seat_is_offered_the_declarations_its_cards_allow_and_only_the_first_a_timeout():
    state = deal_with({0: ["H10", "BJ", "BJ"], 3: PLAIN_25}, first=0)
    dealing = ENGINE.offered_actions(state, 0)
    declaration = next(o for o in dealing if o["type"] == "declare" and "received" in o)
    # One ♥10 (亮主 ♥) is usable; a BJ pair only overcalls (§3.14a.6), so not yet.
    assert declaration["received"] is None and "H10" in declaration["cards"] and "BJ" not in declaration["cards"]
    # Seat 0 is `first`: its turn comes first in the round after the last card (a pass, a declaration, a timeout).
    assert kinds(dealing) == ["declare", "pass", "timeout"]
    assert {"seat": 0, "type": "declare", "cards": ["H10"]} in ENGINE.legal_actions(state, 0)
    assert kinds(ENGINE.offered_actions(state, 3)) == []  # no level card, no joker, not its turn
    assert ENGINE.legal_actions(state, 1) == []  # not its turn in the round after the last card
    declare(state, 0, ["H10"], 1)
    later = next(o for o in ENGINE.offered_actions(state, 0) if o["type"] == "declare" and "received" in o)
    assert "BJ" in later["cards"]  # now 反无主 over ♥ is possible, the declarer's own included (§3.14a.5)


def test_the_dealer_is_offered_the_bury_and_a_referee_the_irregularities_of_the_moment():
    options = {"sj.illegalPlay": "adjudicate"}
    state = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 10], "dealer": 0}, options=options)
    declare(state, 0, ["H10"], 1)
    final_round(state)
    assert kinds(ENGINE.offered_actions(state, 0)) == ["bury", "kitty_mishandled", "timeout"]
    assert next(o for o in ENGINE.offered_actions(state, 0) if o["type"] == "bury")["cards"] == state.hands[0]
    assert kinds(ENGINE.offered_actions(state, 1)) == []
    ENGINE.apply(state, {"seat": 0, "type": "timeout"})
    assert kinds(ENGINE.offered_actions(state, 0)) == ["kitty_mishandled", "miscount", "play", "timeout"]
    assert kinds(ENGINE.offered_actions(state, 1)) == ["miscount"]
    ENGINE.apply(state, {"seat": 0, "type": "timeout"})
    # A follower to act may have revoked or followed wrongly; the others may only have miscounted.
    assert kinds(ENGINE.offered_actions(state, 1)) == ["miscount", "play", "revoke", "timeout", "wrong_follow"]
    assert kinds(ENGINE.offered_actions(state, 2)) == ["miscount"]
    assert kinds(ENGINE.offered_actions(state, 0)) == ["kitty_mishandled", "miscount"]
    rejecting = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 10], "dealer": 0})
    declare(rejecting, 0, ["H10"], 1)
    final_round(rejecting)
    ENGINE.apply(rejecting, {"seat": 0, "type": "timeout"})
    ENGINE.apply(rejecting, {"seat": 0, "type": "timeout"})
    assert kinds(ENGINE.offered_actions(rejecting, 1)) == ["play", "timeout"]
    assert kinds(ENGINE.offered_actions(rejecting, 0)) == []
    while state.phase != "finished":
        ENGINE.apply(state, {"seat": state.to_act, "type": "timeout"})
    assert all(kinds(ENGINE.offered_actions(state, seat)) == [] for seat in range(4))


# -- a wrong follow's n: the fewest of its cards that must change to make it legal (§3.13, S004 第10条) -----------


def wrong_follow(lead: list[str], follower: list[str], cards: list[str], **options: Any) -> int:
    others = [["D2"] * len(lead), ["D3"] * len(lead)]
    state = table([lead + ["C9"], follower, *others], dealer=0, leader=0,
                  options={"sj.illegalPlay": "adjudicate", **options})
    play(state, 0, lead)
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": cards})
    n = state.irregularities[-1]["wrong_cards"]
    assert state.penalties[-1]["points"] == 10 * n and state.trick[-1]["penalty"] == 10 * n
    return n


TRACTOR_HAND = ["H5", "H5", "H6", "H6", "H2", "H2", "H9", "C3"]


@pytest.mark.parametrize(("cards", "n"), [
    (["H2", "H2", "H5", "H5"], 2),  # keep ♥55, change ♥22 for ♥66
    (["H2", "H2", "H9", "H5"], 3),  # only one ♥5 of the tractor was played
    (["H9", "H5", "H6", "H2"], 2),
])
def test_a_tractor_lead_followed_without_the_tractor_held(cards, n):
    assert wrong_follow(["HK", "HK", "HQ", "HQ"], TRACTOR_HAND, cards) == n


def test_a_tractor_lead_followed_by_a_holder_of_a_longer_run():
    # ♥55♥66♥77 holds two 2-pair tractors; ♥77♥6♥9 is one card (♥9 for ♥6) from ♥66♥77.
    hand = ["H5", "H5", "H6", "H6", "H7", "H7", "H9"]
    assert wrong_follow(["HK", "HK", "HQ", "HQ"], hand, ["H7", "H7", "H6", "H9"]) == 1


SHORT_TRACTOR_HAND = ["H2", "H2", "H4", "H4", "H6", "H6", "H7", "H7", "H9"]


@pytest.mark.parametrize(("cards", "shorter", "n"), [
    (["H2", "H2", "H4", "H4", "H9", "H6"], False, 1),  # three pairs are enough: change ♥9 for ♥6
    (["H2", "H2", "H4", "H4", "H6", "H6"], True, 2),  # the longest shorter tractor ♥66♥77 is owed: ♥44 → ♥77
    (["H2", "H2", "H4", "H4", "H9", "H6"], True, 3),
])
def test_a_three_pair_tractor_lead_with_and_without_prefer_shorter_tractor(cards, shorter, n):
    lead = ["HQ", "HQ", "HK", "HK", "HA", "HA"]
    assert wrong_follow(lead, SHORT_TRACTOR_HAND, cards, **{"sj.preferShorterTractor": shorter}) == n


def test_a_throw_of_a_tractor_and_a_pair_owes_the_tractor_then_the_pair():
    # ♥KK♥QQ ♥99 stands: seat 1's ♥22♥33 tractor and ♥55 pair rank lower. Seat 1 owes its tractor and a pair.
    lead = ["HK", "HK", "HQ", "HQ", "H9", "H9"]
    follower = ["H2", "H2", "H3", "H3", "H5", "H5", "H6"]
    assert wrong_follow(lead, follower, ["H2", "H2", "H5", "H5", "H6", "H3"]) == 1
    assert wrong_follow(lead, follower, ["H2", "H6", "H5", "H5", "H3", "H3"]) == 1
    assert wrong_follow(lead, follower, ["H2", "H6", "H5", "H3", "H3", "H2"]) == 1


# -- declarations (§3.4) ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [["C3", "C3"], ["H10", "S10"], ["LJ", "BJ"], ["H10", "LJ"]])
def test_only_a_level_card_a_pair_of_one_or_a_joker_pair_declares(cards):
    # Strength 1 is one L card, 2 two identical L cards, 3 two identical jokers (BJ + LJ only with the switch).
    state = deal_with({0: cards}, first=0)
    assert refused(state, {"seat": 0, "type": "declare", "cards": cards, "received": len(cards)}) \
        == "bad_declaration"


def test_a_declaration_moves_the_deal_on_to_the_declarers_received_card():
    # Seat 3 (offset 3 from `first`) receives card 4 of the deal as its first: the record is then at card 4, and
    # every seat has received one card.
    state = deal_with({3: ["H10"]}, first=0)
    declare(state, 3, ["H10"], 1)
    assert state.dealt == 4
    assert [s["received"] for s in ENGINE.view(state, Viewpoint("public"))["seats"]] == [1, 1, 1, 1]


def overcall_refusal(state: Any, seat: int, cards: list[str], **action: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.apply(state, {"seat": seat, "type": "declare", "cards": cards, **action})
    return caught.value


def test_a_refused_overcall_names_the_declaration_in_force():
    state = deal_with({0: ["H10"], 1: ["LJ", "LJ", "S10"], 2: ["C10"]}, first=0,
                      options={"sj.preset": "s004"})
    first = overcall_refusal(state, 1, ["LJ", "LJ"], received=2)
    assert first.code == "no_trump_needs_overcall"
    declare(state, 0, ["H10"], 1)
    weak = overcall_refusal(state, 2, ["C10"], received=1)
    assert weak.code == "overcall_too_weak" and weak.details == {
        "current": {"seat": 0, "cards": ["H10"], "strength": 1, "trump": "H", "received": 1}, "strength": 1}
    declare(state, 1, ["LJ", "LJ"], 2)
    final = overcall_refusal(state, 1, ["LJ", "LJ"], received=2)
    assert final.code == "overcall_too_weak" and final.details["current"]["cards"] == ["LJ", "LJ"]


def test_a_self_overcall_refusal_names_the_declaration_in_force():
    state = deal_with({0: ["H10", "S10", "S10"]}, first=0, options={"sj.preset": "s004"})
    declare(state, 0, ["H10"], 1)
    own = overcall_refusal(state, 0, ["S10", "S10"], received=3)
    assert own.code == "self_overcall_not_allowed" and own.details["current"]["seat"] == 0


def test_in_the_last_round_a_seat_is_offered_only_the_overcalls_the_rules_allow():
    # S004: 自保 (the second ♥10) yes, 自反 (♠1010) no, a joker pair (反无主) yes, the mixed jokers only with
    # `sj.mixedJokerNoTrump`.
    state = deal_with({0: ["H10", "H10", "S10", "S10", "LJ", "BJ", "BJ"]}, first=0, options={"sj.preset": "s004"})
    declare(state, 0, ["H10"], 1)
    offered = [a["cards"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "declare"]
    assert ["H10", "H10"] in offered and ["S10", "S10"] not in offered and ["BJ", "BJ"] in offered
    assert ["LJ", "BJ"] not in offered and ["H10"] not in offered and ["S10"] not in offered
    mixed = deal_with({0: ["H10", "LJ", "BJ"]}, first=0, options={"sj.mixedJokerNoTrump": True})
    declare(mixed, 0, ["H10"], 1)
    assert ["LJ", "BJ"] in [a["cards"] for a in ENGINE.legal_actions(mixed, 0) if a["type"] == "declare"]


def test_a_big_joker_pair_is_offered_over_a_little_joker_no_trump_only_with_the_switch():
    for switch in (True, False):
        state = deal_with({0: ["H10", "LJ", "LJ"], 1: ["BJ", "BJ"]}, first=0,
                          options={"sj.bigJokerPairOvercall": switch})
        declare(state, 0, ["H10"], 1)
        declare(state, 0, ["LJ", "LJ"], 3)
        ENGINE.apply(state, {"seat": 0, "type": "pass"})
        offered = [a["cards"] for a in ENGINE.legal_actions(state, 1) if a["type"] == "declare"]
        assert (["BJ", "BJ"] in offered) == switch
        if switch:
            ENGINE.apply(state, {"seat": 1, "type": "declare", "cards": ["BJ", "BJ"]})
            assert state.declarations[-1].seat == 1 and state.declarations[-1].cards == ["BJ", "BJ"]


def test_burying_a_card_the_dealer_does_not_hold_names_the_dealer():
    state = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 10], "dealer": 0})
    declare(state, 0, ["H10"], 1)
    final_round(state)
    missing = next(c for c in state.hands[1] if c not in state.hands[0])
    not_in_hand(state, {"seat": 0, "type": "bury", "cards": state.hands[0][:7] + [missing]})


def test_the_last_round_checks_declarations_as_strictly_as_the_dealing():
    # §3.4: after the last card each seat gets one more chance, and an overcall still needs strictly more
    # strength; 自反 stays off under S004; a card not held names the seat.
    state = deal_with({0: ["H10", "S10", "S10"], 1: ["C10"], 2: ["BJ", "BJ"]}, first=0,
                      options={"sj.preset": "s004", "sj.bigJokerPairOvercall": True})
    declare(state, 0, ["H10"], 1)
    assert refused(state, {"seat": 0, "type": "declare", "cards": ["S10", "S10"]}) == "self_overcall_not_allowed"
    assert state.dealt < 100
    ENGINE.apply(state, {"seat": 0, "type": "pass"})
    assert state.dealt == 100 and ENGINE.view(state, Viewpoint("public"))["dealt"] == 100  # the dealing is over
    assert refused(state, {"seat": 1, "type": "declare", "cards": ["C10"]}) == "overcall_too_weak"
    not_in_hand(state, {"seat": 1, "type": "declare", "cards": ["BJ", "BJ"]})  # seat 2 holds both


def test_each_offer_names_its_seat_and_leaves_the_recorders_fields_open():
    # docs/ARCHITECTURE.md `offered_actions`: an action carrying `cards` offers a choice of those cards; a field
    # set to None is typed by the recorder (`received` while dealing, an irregularity's `note`).
    state = deal_with({1: ["H10", "S10", "S10", "LJ", "LJ"]}, first=1, context={"levels": [10, 10], "dealer": 1},
                      options={"sj.illegalPlay": "adjudicate", "sj.preset": "s004"})
    assert {"seat": 1, "type": "timeout"} in ENGINE.offered_actions(state, 1)  # `first` is 1: its turn comes first
    assert {"seat": 0, "type": "timeout"} not in ENGINE.offered_actions(state, 0)
    declare(state, 1, ["H10"], 1)
    dealing = next(o for o in ENGINE.offered_actions(state, 1) if o["type"] == "declare" and "received" in o)
    assert dealing["seat"] == 1 and "LJ" in dealing["cards"] and "S10" not in dealing["cards"]  # S004: no 自反
    final_round(state)
    for seat in range(4):
        assert all(o["seat"] == seat for o in ENGINE.offered_actions(state, seat))
    assert {"seat": 1, "type": "bury", "cards": state.hands[1]} in ENGINE.offered_actions(state, 1)
    assert {"seat": 1, "type": "irregularity", "kind": "kitty_mishandled", "note": None} \
        in ENGINE.offered_actions(state, 1)
    ENGINE.apply(state, {"seat": 1, "type": "timeout"})
    ENGINE.apply(state, {"seat": 1, "type": "timeout"})
    follower = ENGINE.offered_actions(state, 2)
    assert all(o["seat"] == 2 for o in follower)
    for kind in ("revoke", "wrong_follow"):
        assert {"seat": 2, "type": "irregularity", "kind": kind, "cards": state.hands[2], "note": None} in follower
    assert {"seat": 2, "type": "irregularity", "kind": "miscount", "note": None} in follower


# -- a deal's context ("Engine additions": both levels 2–14, the dealer or none in a 抢庄 deal with equal levels, the
# deal's number) and the fields a record's actions carry (docs/record-format.md's 升级 actions) ---------------------


def setup(context: dict[str, Any]) -> Any:
    deck = full_deck(2, True)
    hands = [deck[25 * s: 25 * s + 25] for s in range(4)]
    return DealSetup("shengji", ENGINE.resolve_options({}), ["甲", "乙", "丙", "丁"], 0, hands, deck[100:], context)


def test_a_deal_without_context_is_a_first_deal_at_level_two_without_a_dealer():
    state = ENGINE.new_deal(setup({}))
    assert state.levels == [2, 2] and state.level == 2 and state.dealer is None and state.deal_number == 1


@pytest.mark.parametrize("context", [
    {"levels": [2, 2, 2]}, {"levels": [2, 15]}, {"levels": [1, 2]}, {"levels": [2.0, 2]}, {"levels": "22"},
    {"levels": [5, 5], "dealer": 4}, {"levels": [5, 5], "dealer": -1}, {"levels": [5, 5], "dealer": "1"},
    {"levels": [3, 2]}, {"levels": [3, 2], "dealer": None}, {"deal_number": 0}, {"deal_number": "2"},
])
def test_a_context_outside_the_rules_is_refused(context):
    with pytest.raises(IllegalAction) as caught:
        ENGINE.new_deal(setup(context))
    assert caught.value.code == "bad_context" and "None" not in caught.value.message


def test_a_bad_dealer_is_refused_naming_the_tables_players():
    with pytest.raises(IllegalAction) as caught:
        ENGINE.new_deal(setup({"levels": [5, 5], "dealer": 4}))
    assert caught.value.mentions_seats


@pytest.mark.parametrize(("received", "code"), [(26, "bad_action"), (-1, "bad_action"), ("3", "bad_action"),
                                                (0, "not_yet_received")])
def test_a_declarations_received_count_is_0_to_25(received, code):
    state = deal_with({0: ["H10"]}, first=0)
    assert refused(state, {"seat": 0, "type": "declare", "cards": ["H10"], "received": received}) == code


def test_an_irregularity_keeps_the_note_its_recorder_wrote_and_no_other():
    state = table([["H8", "H8", "D2"], ["H7", "H7", "HA", "H3", "C3"], ["D4"] * 3, ["D5"] * 3], leader=0,
                  options={"sj.illegalPlay": "adjudicate"})
    play(state, 0, ["H8", "H8"])
    for bad in ({"kind": "cheating"}, {"kind": "miscount", "note": 5}):
        assert refused(state, {"seat": 1, "type": "irregularity", **bad}) == "bad_action"
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": ["HA", "H3"]})
    assert "note" not in state.irregularities[-1]
    ENGINE.apply(state, {"seat": 2, "type": "foul", "code": "talking", "note": "说话", "penalty": 10})
    ENGINE.apply(state, {"seat": 3, "type": "irregularity", "kind": "miscount", "note": "少一张"})
    assert state.irregularities[-1]["note"] == "少一张"
    view = ENGINE.view(state, Viewpoint("public"))
    assert [i["kind"] for i in view["irregularities"]] == ["wrong_follow", "miscount"]
    assert [p["reason"] for p in view["penalties"]] == ["wrong_follow", "foul"]
    assert [f["code"] for f in view["fouls"]] == ["talking"]
    assert ENGINE.view(state, Viewpoint("referee"))["tricks"] == state.tricks
    assert ENGINE.status(state) == {"phase": "finished", "to_act": None, "finished": True}


def test_a_live_deal_is_not_finished_and_the_dealer_sees_no_kitty_during_the_last_round():
    state = deal_with({0: ["H10"]}, first=0, context={"levels": [10, 10], "dealer": 0})
    assert ENGINE.status(state) == {"phase": "dealing", "to_act": None, "finished": False}
    ENGINE.apply(state, {"seat": 0, "type": "pass"})
    assert state.phase == "declaring" and ENGINE.view(state, Viewpoint("seat", 0))["kitty"] is None


# -- what a referee's records leave in the deal (§3.13; docs/record-format.md "Irregularities", the result's facts) --


def test_a_foul_without_a_penalty_moves_no_points():
    state = table([["H8", "D2"], ["H3", "D3"], ["S3", "D4"], ["C3", "D5"]], leader=0)
    ENGINE.apply(state, {"seat": 1, "type": "foul", "code": "talking", "note": "说话"})
    assert state.penalties == [] and len(state.fouls) == 1


def test_a_revoke_and_a_wrong_follow_stay_in_the_trick_as_played():
    state = table([["H8", "H8", "D2"], ["H7", "H7", "HA", "H3", "C3"], ["D4", "D4", "C4"], ["H5", "C5", "C6"]],
                  leader=0, options={"sj.illegalPlay": "adjudicate"})
    play(state, 0, ["H8", "H8"])
    ENGINE.apply(state, {"seat": 1, "type": "irregularity", "kind": "wrong_follow", "cards": ["HA", "H3"]})
    assert state.trick[1] == {"seat": 1, "cards": ["HA", "H3"], "irregularity": "wrong_follow", "penalty": 20}
    assert {k: state.irregularities[-1][k] for k in ("seat", "kind", "cards")} == {
        "seat": 1, "kind": "wrong_follow", "cards": ["HA", "H3"]}
    play(state, 2, ["D4", "D4"])
    ENGINE.apply(state, {"seat": 3, "type": "irregularity", "kind": "revoke", "cards": ["C5", "C6"]})
    assert state.trick[-1] == {"seat": 3, "cards": ["C5", "C6"], "irregularity": "revoke"}
    assert {k: state.irregularities[-1][k] for k in ("seat", "kind", "cards")} == {
        "seat": 3, "kind": "revoke", "cards": ["C5", "C6"]}
    view = ENGINE.view(state, Viewpoint("referee"))
    assert view["seats"][3]["hand"] == ["H5"] and view["trick"]["plays"][-1]["irregularity"] == "revoke"
    assert ENGINE.result(state)["offender"] == 3


def test_a_mishandled_kitty_names_the_dealer_as_the_offender():
    state = deal_with({}, context={"levels": [5, 5], "dealer": 2}, options={"sj.illegalPlay": "adjudicate"})
    final_round(state)
    ENGINE.apply(state, {"seat": 2, "type": "irregularity", "kind": "kitty_mishandled"})
    result = ENGINE.result(state)
    assert result["ended_by"] == "kitty_mishandled" and result["offender"] == 2
    assert state.irregularities[-1]["seat"] == 2 and state.irregularities[-1]["kind"] == "kitty_mishandled"
