"""快乐三打一 rules: every vector of docs/rules/sandayi.md §1.11, the worked examples of §1.7, the clarifications of
§1.10a and every ruleset switch of §1.4–1.8.

Deals are built by hand: `make_deal` places the cards a test needs (by rank; suits never matter in 三打一) and
deals the rest of the two decks round-robin, so every deal is a legal 4×25 + 8 deck with each card twice.
Seats are ♠ 0, ♥ 1, ♣ 2, ♦ 3 in play order.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from game_support import Scripted, deal_the_rest

from domain.games.sandayi.engine import SandayiEngine, baodao_sets
from domain.games.sandayi.patterns import beats, parse
from domain.games.sandayi.table import SandayiTable
from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup, Viewpoint
from domain.kernel.errors import IllegalAction
from domain.records.format import check_record, public_result

ENGINE = SandayiEngine()
SCRIPT = Scripted(ENGINE)
act, bid, passes, refused, scores = SCRIPT.act, SCRIPT.bid, SCRIPT.passes, SCRIPT.refused, SCRIPT.scores
SUITS = "SHCD"
RANK_ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "LJ", "BJ"]


def ranks(text: str) -> list[str]:
    """'A23 T BJ' → the rank tokens A, 2, 3, 10, BJ (spaces are ignored, T is 10)."""
    return ["10" if r == "T" else r for r in re.findall(r"10|BJ|LJ|[2-9TJQKA]", text)]


def rank_of(code: str) -> str:
    return code if code in ("LJ", "BJ") else code[1:]


def cards(text: str) -> list[str]:
    """Real card codes for a rank string, for pattern tests (suits cycle; two decks hold each code twice)."""
    out, seen = [], Counter()
    for rank in ranks(text):
        if rank in ("LJ", "BJ"):
            out.append(rank)
        else:
            out.append(SUITS[seen[rank] % 4] + rank)
            seen[rank] += 1
    return out


def pattern(text: str):
    found = parse(cards(text))
    assert found is not None, text
    return found


def wins(play: str, previous: str, compare: str = "tripleOnly") -> bool:
    return beats(pattern(play), pattern(previous), compare)


def make_deal(spec: dict[int, str], kitty: str = "") -> tuple[list[list[str]], list[str]]:
    """A complete legal deal: each seat in `spec` holds those ranks (≤ 25), the kitty those (≤ 8); the rest of
    the 108 cards are dealt round-robin in rank order, so filler hands hold about two cards of a rank."""
    pool = Counter(full_deck(2, True))
    hands: list[list[str]] = [[] for _ in range(4)]
    zones = hands + [[]]
    for zone, text in [*spec.items(), (4, kitty)]:
        for rank in ranks(text):
            code = next(c for c in sorted(pool) if pool[c] and rank_of(c) == rank)
            pool[code] -= 1
            zones[zone].append(code)
    deal_the_rest(zones, [25, 25, 25, 25, 8], sorted(pool.elements(), key=lambda c: (RANK_ORDER.index(rank_of(c)), c)))
    return hands, zones[4]


def new_state(spec: dict[int, str] | None = None, kitty: str = "", first: int = 0, options: dict | None = None):
    hands, kitty_cards = make_deal(spec or {}, kitty)
    state = ENGINE.new_deal(DealSetup("sandayi", options or {}, ["甲", "乙", "丙", "丁"], first, hands, kitty_cards))
    # The record of what `act` applies (not a field of the state: state equality ignores it).
    state.record = {"format": "fupan.deal/1", "game": "sandayi", "options": options or {},
                    "seats": ["甲", "乙", "丙", "丁"], "first": first, "hands": hands, "kitty": kitty_cards,
                    "context": {}, "actions": []}
    return state


def take(state, seat: int, text: str) -> list[str]:
    """Codes from `seat`'s hand for the ranks in `text`."""
    hand = list(state.hands[seat])
    out = []
    for rank in ranks(text):
        code = next(c for c in hand if rank_of(c) == rank)
        hand.remove(code)
        out.append(code)
    return out


def declare(state, what: str) -> None:
    act(state, state.dealer, "declare", kind=what)


def play(state, seat: int, text: str) -> None:
    act(state, seat, "play", cards=take(state, seat, text))


# -- scenario hands --------------------------------------------------------------------------------------------
# The dealer's 33 cards are listed hand first (25), then the kitty (8).

STRAIGHT14 = "A23456789TJQKA"  # the one 14-card straight, A-2-…-K-A (§1.3)
# Goes out in three leads: two 14-card straights and 33344.
QUICK = ("A23456789TJQKA A23456789TJ", "QKA 33344")
QUICK_LEADS = [STRAIGHT14, STRAIGHT14, "33344"]
# A defender who, once on lead, goes out: a 2 to take the lead, the 14-card straight, the plane JJJQQQ+6677.
RUNNER = "2 A23456789TJQKA JJJQQQ6677"


def baodao_dealer(rank: str) -> tuple[str, str]:
    """Seven `rank`s (a 7-card bomb: 报到) and 26 cards that go out as two pair runs, 22255 and a single 4. Two of
    the seven sit in the kitty, so the 25 cards dealt alone do not qualify (§1.10a.6: judged on the 33)."""
    return f"3344556677 TTJJQQKKAA {rank * 5}", f"22255 4 {rank * 2}"


def baodao_leads(rank: str) -> list[str]:
    return [rank * 7, "3344556677", "TTJJQQKKAA", "22255", "4"]


def dealer_state(dealer_cards: tuple[str, str], bids: tuple, first: int = 0, options: dict | None = None,
                 runner: int | None = None, extra: dict[int, str] | None = None):
    """A deal whose dealer (the seat `bids` make dealer) holds `dealer_cards`; `runner` holds RUNNER."""
    dealer = _dealer_of(bids, first)
    spec = {dealer: dealer_cards[0], **(extra or {})}
    if runner is not None:
        spec[runner] = RUNNER
    state = new_state(spec, dealer_cards[1], first, options)
    bid(state, *bids)
    assert state.dealer == dealer and state.phase == "play"
    return state


def _dealer_of(bids: tuple, first: int) -> int:
    dealer, top = first, 0
    for offset, value in enumerate(bids):
        if value is not None and value > top:
            dealer, top = (first + offset) % 4, value
    return dealer


def dealer_goes_out(state, leads: list[str]) -> None:
    """The dealer leads each of `leads`; the three defenders pass every round."""
    for n, text in enumerate(leads):
        play(state, state.dealer, text)
        if n < len(leads) - 1:
            passes(state)
    assert state.phase == "finished" and state.winner == state.dealer


def runner_goes_out(state, runner: int, lead: str = "4") -> None:
    """The dealer leads a single, the runner takes it with a 2 and goes out with the straight and the plane."""
    play(state, state.dealer, lead)
    while state.to_act != runner:
        act(state, state.to_act, "pass")
    play(state, runner, "2")
    passes(state)
    play(state, runner, STRAIGHT14)
    passes(state)
    play(state, runner, "JJJQQQ6677")
    assert state.phase == "finished" and state.winner == runner


def goes_out_first(state, dealer_wins: bool, leads: list[str], runner: int) -> None:
    """The dealer goes out with `leads` (`dealer_wins`), or else the runner goes out first."""
    if dealer_wins:
        dealer_goes_out(state, leads)
    else:
        runner_goes_out(state, runner)


# -- §1.11 test vectors -----------------------------------------------------------------------------------------


def test_v1_straights_must_match_in_length():
    assert wins("45678", "34567")
    assert not wins("345678", "34567")  # 6 cards vs 5
    state = dealer_state(("34567 45678 345678", ""), (1, None, None, None), extra={1: "45678 345678"})
    play(state, 0, "34567")
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "345678")}, "does_not_beat")
    play(state, 1, "45678")


def test_v2_ace_low_and_high_but_no_wrap():
    assert pattern("A2345").key == 5 and pattern("23456").key == 6
    assert wins("23456", "A2345")
    assert pattern("10JQKA").key == 14 and pattern("910JQK").key == 13
    assert wins("10JQKA", "910JQK")
    assert parse(cards("JQKA2")) is None


def test_v3_the_fourteen_card_straight():
    top = pattern(STRAIGHT14)
    assert (top.kind, top.size, top.key) == ("straight", 14, 14)
    assert not wins(STRAIGHT14, STRAIGHT14)  # equal keys never beat; no other 14-card straight exists
    assert wins("3333", STRAIGHT14)
    # §1.10a.1: every 13-card straight reads with top 14 (2…A), so only a bomb beats it.
    assert pattern("A23456789TJQK").key == 14 == pattern("23456789TJQKA").key
    assert not wins("23456789TJQKA", "A23456789TJQK")


def test_v4_pair_runs_through_the_ace():
    assert (pattern("AA2233").kind, pattern("AA2233").key) == ("pair_run", 3)
    assert wins("223344", "AA2233")
    assert parse(cards("KKAA22")) is None


def test_v5_triple_runs_and_planes():
    assert (pattern("AAA222").kind, pattern("AAA222").key) == ("triple_run", 2)
    assert wins("333444", "AAA222")
    assert pattern("4445556677").kind == "plane"
    assert parse(cards("4445556699")) is None  # wings not consecutive
    assert parse(cards("4445555566")) is None  # a wing rank equals a triple rank


def test_v6_full_house_compare_option():
    assert not wins("33355", "33344", "tripleOnly")
    assert wins("33355", "33344", "tripleThenPair")
    for compare in ("tripleOnly", "tripleThenPair"):
        assert wins("44433", "333KK", compare)


def test_v7_jokers_pairs_and_non_patterns():
    assert wins("BJBJ", "LJLJ") and wins("LJLJ", "22")
    assert parse(cards("BJLJ")) is None
    assert parse(cards("BJBJLJ")) is None


def test_v8_bombs_by_size_then_rank_and_the_king_bomb():
    assert wins("33333", "2222")
    assert wins("22222222", "3333333")
    assert wins("BJBJLJLJ", "22222222")
    assert not wins("22222222", "BJBJLJLJ")


def test_v9_bomb_allowances_follow_the_bids():
    bombs = {0: "5555 6666", 1: "7777 8888 KKKK", 3: "TTTT JJJJ QQQQ"}
    state = dealer_state(QUICK, (1, 2, 3), extra=bombs)
    assert state.dealer == 2 and not state.toulu
    assert state.allowance == [1, 2, None, None]  # ♣ the dealer and ♦ (never got a turn) are unlimited
    play(state, 2, STRAIGHT14)
    act(state, 3, "pass")
    play(state, 0, "5555")  # ♠'s one bomb
    passes(state)
    refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, "6666")}, "bomb_allowance")  # a lead counts
    play(state, 0, "6")
    play(state, 1, "7777")
    act(state, 2, "pass")
    play(state, 3, "TTTT")
    passes(state)
    play(state, 3, "JJJJ")
    act(state, 0, "pass")
    play(state, 1, "KKKK")  # ♥'s second
    passes(state)
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "8888")}, "bomb_allowance")
    play(state, 1, "8")
    act(state, 2, "pass")
    play(state, 3, "QQQQ")  # ♦'s third: unlimited
    assert state.bombs_by_seat == [1, 2, 0, 3]


def test_v10_opening_three_is_toulu():
    state = dealer_state(QUICK, (3,))
    assert state.toulu and state.dealer == 0 and state.bids == [(0, 3)]
    assert state.allowance == [None, None, None, None]  # no defender got a turn to bid
    assert {"seat": 0, "type": "declare", "kind": "tanda"} in ENGINE.legal_actions(state, 0)


def test_v11_bid_one_dealer_loses():
    state = dealer_state(QUICK, (1, None, None, None), runner=2)
    runner_goes_out(state, 2)
    assert scores(state) == [-3, 1, 1, 1]


def test_v12_bid_three_not_first_bidder_wins():
    state = dealer_state(QUICK, (1, 3))
    assert state.dealer == 1 and not state.toulu
    dealer_goes_out(state, QUICK_LEADS)
    assert scores(state) == [-3, 9, -3, -3]  # u = 3: not 头撂


@pytest.mark.parametrize(("dealer_wins", "expected"), [(False, [0, 0, 0, 0]), (True, [12, -4, -4, -4])])
def test_v13_baodao_with_seven_eights(dealer_wins, expected):
    state = dealer_state(baodao_dealer("8"), (2, None, None, None), runner=3)
    assert [sorted(rank_of(c) for c in s) for s in baodao_sets(state.hands[0])] == [["8"] * 7]
    declare(state, "baodao")
    goes_out_first(state, dealer_wins, baodao_leads("8"), 3)
    assert scores(state) == expected


def _table_after(results: list[dict], options: dict | None = None) -> dict:
    table = SandayiTable()
    options = {"sdy.earlyRoundDeals": len(results), **(options or {})}
    standing = table.start(options, 4)
    for result in results:
        assert standing["end"] is None
        standing = table.after_deal(standing, options, result)
    return standing


def _deal(dealer: int, bid: int, won: bool, toulu: bool = False, m: int = 1) -> dict:
    """A deal's result as §1.7 scores it: u = bid (4 for a 头撂 win), dealer ±3u·M, defenders ∓u·M."""
    u = 4 if toulu and won else bid
    sign = 1 if won else -1
    scores = [sign * 3 * u * m if s == dealer else -sign * u * m for s in range(4)]
    return {"scores": scores, "dealer": dealer, "bid": bid, "toulu": toulu, "dealer_won": won}


def test_v14_table_order_total_then_dealer_count_then_difficulty():
    # A (seat 0) deals 3 times (bids 1, 2, 3), B (seat 1) twice; both end on 10.
    results = [_deal(0, 1, True), _deal(0, 2, True), _deal(0, 3, False), _deal(1, 1, True), _deal(1, 1, False),
               _deal(2, 3, False, toulu=True, m=2), _deal(3, 3, False), _deal(2, 1, False)]
    standing = _table_after(results)
    assert standing["scores"] == [10, 10, -18, -2] and standing["dealt"][:2] == [3, 2]
    assert standing["end"] == {"winner": 0, "by": "deals"}
    # Both deal 3 times; bid sums 6 (A) and 5 (B): A ranks higher.
    results = [_deal(0, 1, False), _deal(0, 2, False), _deal(0, 3, True, toulu=True), _deal(1, 1, True),
               _deal(1, 2, True), _deal(1, 2, False), _deal(2, 3, False, toulu=True, m=2), _deal(3, 2, False)]
    standing = _table_after(results)
    assert standing["scores"] == [10, 10, -18, -2] and standing["dealt"] == [3, 3, 1, 1]
    assert [sum(b) for b in standing["dealer_bids"][:2]] == [6, 5]
    assert standing["end"] == {"winner": 0, "by": "deals"}


def test_table_rotates_the_first_bidder_and_a_void_deal_is_redealt_from_the_same_seat():
    table = SandayiTable()
    standing = table.start({}, 4)
    assert [table.first_seat(standing, 0, 1, 4)] == [0]
    standing = table.after_deal(standing, {}, _deal(0, 1, True))
    assert table.first_seat(standing, 0, 2, 4) == 1
    void = {"redeal": True, "scores": [0, 0, 0, 0]}
    assert table.after_deal(standing, {}, void) == standing
    assert table.first_seat(table.after_deal(standing, {}, void), 0, 3, 4) == 1


# -- §1.7 worked examples ---------------------------------------------------------------------------------------


def test_example_1_bid_two_dealer_wins():
    state = dealer_state(QUICK, (1, 2, None, None))
    assert state.dealer == 1 and state.bid == 2
    dealer_goes_out(state, QUICK_LEADS)
    assert scores(state) == [-2, 6, -2, -2]


@pytest.mark.parametrize(("dealer_wins", "expected"), [(True, [24, -8, -8, -8]), (False, [-18, 6, 6, 6])])
def test_example_2_toulu_with_tanda(dealer_wins, expected):
    state = dealer_state(QUICK, (3,), runner=1)
    declare(state, "tanda")
    goes_out_first(state, dealer_wins, QUICK_LEADS, 1)
    assert scores(state) == expected


@pytest.mark.parametrize(("dealer_wins", "expected"), [(True, [-6, 18, -6, -6]), (False, [0, 0, 0, 0])])
def test_example_3_baodao_with_seven_nines(dealer_wins, expected):
    state = dealer_state(baodao_dealer("9"), (1, 3), runner=2)
    assert not state.toulu
    declare(state, "baodao")
    goes_out_first(state, dealer_wins, baodao_leads("9"), 2)
    assert scores(state) == expected


def test_example_4_toulu_tanda_baodao_win():
    state = dealer_state(baodao_dealer("9"), (3,))
    declare(state, "tanda")
    declare(state, "baodao")
    dealer_goes_out(state, baodao_leads("9"))
    result = ENGINE.result(state)
    assert (result["stake"], result["multipliers"]["total"]) == (4, 4)
    assert result["scores"] == [48, -16, -16, -16]



# -- patterns and comparison (§1.3, §1.4, §1.10a.1–4) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "kind", "key"),
    [
        ("BJBJLJLJ", "king_bomb", 17), ("8888", "bomb", 8), ("22222222", "bomb", 15), ("LJ", "single", 16),
        ("BJBJ", "pair", 17), ("33", "pair", 3), ("222", "triple", 15), ("333LJLJ", "full_house", 3),
        ("AAA22", "full_house", 14), ("55566", "full_house", 5), ("A2345", "straight", 5),
        ("10JQKA", "straight", 14), ("A23456789TJQK", "straight", 14), ("AA2233", "pair_run", 3),
        ("QQKKAA", "pair_run", 14), ("AA2233445566778899TTJJQQKKAA", "pair_run", 14),
        ("AA2233445566778899TTJJQQKK", "pair_run", 14), ("AAA222", "triple_run", 2),
        ("QQQKKKAAA", "triple_run", 14), ("333444555", "triple_run", 5), ("4445556677", "plane", 5),
        ("AAA2223344", "plane", 2), ("333444AA22", "plane", 4), ("333444KKAA", "plane", 4),
        ("QQQKKKAAA334455", "plane", 14),
    ],
)
def test_patterns(play, kind, key):
    """§1.3; one key per set, the highest reading (§1.10a.1); wings take A low or high on their own (§1.10a.3)."""
    found = pattern(play)
    assert (found.kind, found.key, found.size) == (kind, key, len(ranks(play)))


@pytest.mark.parametrize(
    "play",
    ["JQKA2", "QKA23", "KA234", "KKAA22", "KKKAAA222", "BJLJ", "BJBJLJ", "BJBJLJLJ3", "BJBJLJLJ33", "AA22",
     "3344", "34", "333444LJLJBJBJ", "3334445599", "333444556", "33344455", "3334446", "33334", "333344",
     "3333344444", "4445555566", "333444BJBJ", "A23456789TJQKA3"],
)
def test_not_patterns(play):
    """The list of §1.3 is exhaustive; no wrap through K-A-2 (§1.10a.2); no joker wings (§1.10a.3); four jokers
    plus anything is nothing (§1.10a.4)."""
    assert parse(cards(play)) is None, play


def test_comparisons():
    assert wins("5556663344", "444555QQKK")  # wings never count
    assert not wins("4445557788", "444555QQKK")  # equal keys never beat
    assert not wins("555666777TTJJQQ", "4445556677")  # planes of different sizes
    assert not wins("3333", "BJBJLJLJ") and wins("BJBJLJLJ", "3333")
    assert wins("3333", "22") and not wins("22", "3333")
    assert not wins("AAAAA", "222222")  # a 5-card bomb never beats a 6-card bomb
    assert wins("2", "A") and wins("LJ", "2") and wins("BJ", "LJ") and not wins("BJ", "BJ")
    assert not wins("33344", "AA") and not wins("AA", "33344")  # different patterns
    assert wins("66677", "555BJBJ", "tripleThenPair")
    assert wins("555LJLJ", "55522", "tripleThenPair") and not wins("555LJLJ", "55522", "tripleOnly")

# -- bidding (§1.5, §1.10a.7) -----------------------------------------------------------------------------------


def test_first_bidder_must_bid():
    state = new_state(first=2)
    assert state.to_act == 2
    assert ENGINE.legal_actions(state, 2) == [{"seat": 2, "type": "bid", "value": v} for v in (1, 2, 3)]
    refused(state, {"seat": 2, "type": "pass"}, "must_bid")
    refused(state, {"seat": 3, "type": "bid", "value": 1}, "not_your_turn")
    act(state, 2, "bid", value=1)
    assert ENGINE.legal_actions(state, 3) == [{"seat": 3, "type": "pass"}, {"seat": 3, "type": "bid", "value": 2},
                                              {"seat": 3, "type": "bid", "value": 3}]


@pytest.mark.parametrize("value", [0, 4, -1, True, "2", 1.0, None])
def test_bids_are_one_two_or_three(value):
    state = new_state()
    refused(state, {"seat": 0, "type": "bid", "value": value}, "bad_bid")


def test_bids_must_be_strictly_higher():
    state = new_state()
    bid(state, 2)
    refused(state, {"seat": 1, "type": "bid", "value": 1}, "bid_too_low")
    refused(state, {"seat": 1, "type": "bid", "value": 2}, "bid_too_low")
    bid(state, None, None, None)
    assert (state.dealer, state.bid, state.toulu, state.phase) == (0, 2, False, "play")
    assert state.allowance == [None, 1, 1, 1]  # three defenders who passed: one bomb each


def test_each_seat_bids_once_and_the_highest_bidder_deals():
    state = new_state(first=1)
    bid(state, 1, None, 2, None)
    assert state.bids == [(1, 1), (2, None), (3, 2), (0, None)]
    assert (state.dealer, state.bid, state.phase, state.to_act) == (3, 2, "play", 3)
    assert state.allowance == [1, 1, 1, None]  # bid 1 → 1, passed → 1
    refused(state, {"seat": 1, "type": "bid", "value": 3}, "bidding_over")


def test_a_three_ends_bidding_at_once():
    state = new_state()
    bid(state, 1, None, 3)
    assert (state.dealer, state.phase, state.to_act, state.toulu) == (2, "play", 2, False)
    assert len(state.bids) == 3  # ♦ gets no bidding action (§1.10a.7)
    assert ENGINE.legal_actions(state, 3) == []
    refused(state, {"seat": 3, "type": "pass"}, "not_your_turn")


@pytest.mark.parametrize(("first", "bids", "toulu"), [(0, (3,), True), (2, (3,), True), (0, (1, 3), False),
                                                       (0, (2, None, 3), False), (3, (1, None, None, None), False)])
def test_toulu_is_the_first_bidders_opening_three(first, bids, toulu):
    state = new_state(first=first)
    bid(state, *bids)
    assert state.toulu is toulu


def test_the_dealer_takes_the_kitty():
    state = new_state(first=1)
    kitty = list(state.kitty)
    dealt = list(state.hands[2])
    bid(state, 1, 2, None, None)
    assert state.dealer == 2 and len(state.hands[2]) == 33
    assert Counter(state.hands[2]) == Counter(dealt + kitty)
    assert [len(h) for h in state.hands] == [25, 25, 33, 25]


def test_a_play_during_bidding_is_not_a_pass():
    """Engine bug found by these tests: a `play` during bidding was taken as 不叫 and accepted."""
    state = new_state()
    bid(state, 1)
    refused(state, {"seat": 1, "type": "play", "cards": [state.hands[1][0]]}, "bad_bid")


def test_timeouts_in_bidding_bid_one_then_pass():
    state = new_state()
    act(state, 0, "timeout")
    act(state, 1, "timeout")
    assert state.bids == [(0, 1), (1, None)]


# -- bomb allowances (§1.5 table, §1.10a.5) ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "bids", "allowance"),
    [
        (0, (1, 2, 3), [1, 2, None, None]),
        (0, (3,), [None, None, None, None]),
        (0, (1, None, None, None), [None, 1, 1, 1]),
        (0, (1, 2, None, None), [1, None, 1, 1]),
        (0, (2, None, None, None), [None, 1, 1, 1]),
        (1, (1, None, 3), [None, 1, 1, None]),  # ♠ never got a turn
        (3, (1, 2, None, 3), [2, 1, None, 1]),  # ♠ bid 2, then ♣ bid 3
    ],
)
def test_allowance_table(first, bids, allowance):
    state = new_state(first=first)
    bid(state, *bids)
    assert state.allowance == allowance
    public = ENGINE.view(state, Viewpoint("public"))
    assert [s["bombs_allowed"] for s in public["seats"]] == allowance


def test_the_king_bomb_counts_as_a_bomb_play():
    """§1.5 [REC] and §1.10a.5: every bomb and 天王炸弹 play counts, leading or following."""
    state = dealer_state(QUICK, (1, None, None, None), extra={1: "BJBJLJLJ 5555"})
    play(state, 0, "4")
    play(state, 1, "BJBJLJLJ")
    assert state.bombs_by_seat[1] == 1
    passes(state)
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "5555")}, "bomb_allowance")
    # Holding bombs or splitting them into other patterns is never restricted.
    play(state, 1, "55")
    assert state.bombs_by_seat[1] == 1


def test_the_dealer_bombs_freely():
    dealer = ("3333 4444 5555 6666 7777 88888", "99999999")
    state = dealer_state(dealer, (1, None, None, None))
    for text in ("3333", "4444", "5555", "6666", "7777", "99999999"):
        play(state, 0, text)
        passes(state)
    play(state, 0, "88888")  # going out with a bomb counts too (§1.10a.5)
    assert state.phase == "finished" and state.bombs_by_seat[0] == 7
    assert scores(state) == [3, -1, -1, -1]  # bombs multiply nothing by default (§1.7)


# -- declarations (§1.5, §1.10a.6) ------------------------------------------------------------------------------


def test_declarations_only_by_the_dealer_before_the_first_play():
    state = new_state({0: baodao_dealer("8")[0]}, baodao_dealer("8")[1])
    refused(state, {"seat": 0, "type": "declare", "kind": "baodao"}, "declare_not_allowed")  # still bidding
    bid(state, 3)
    refused(state, {"seat": 1, "type": "declare", "kind": "tanda"}, "declare_not_allowed")
    refused(state, {"seat": 2, "type": "declare", "kind": "baodao"}, "declare_not_allowed")
    refused(state, {"seat": 0, "type": "declare", "kind": "show"}, "bad_action")
    declare(state, "baodao")
    refused(state, {"seat": 0, "type": "declare", "kind": "baodao"}, "already_declared")
    declare(state, "tanda")  # either order
    refused(state, {"seat": 0, "type": "declare", "kind": "tanda"}, "already_declared")
    assert state.declared == ["baodao", "tanda"]
    assert ENGINE.legal_actions(state, 0) == []


def test_no_declaration_after_the_dealers_first_play():
    state = dealer_state(baodao_dealer("8"), (3,))
    assert {a["kind"] for a in ENGINE.legal_actions(state, 0)} == {"tanda", "baodao"}
    play(state, 0, "4")
    for kind in ("tanda", "baodao"):
        refused(state, {"seat": 0, "type": "declare", "kind": kind}, "declare_not_allowed")
    assert ENGINE.legal_actions(state, 0) == []


def test_tanda_only_in_toulu():
    state = dealer_state(QUICK, (1, 3))
    assert not state.toulu
    refused(state, {"seat": 1, "type": "declare", "kind": "tanda"}, "tanda_not_allowed")
    assert ENGINE.legal_actions(state, 1) == []
    state = dealer_state(QUICK, (2, None, None, None))
    refused(state, {"seat": 0, "type": "declare", "kind": "tanda"}, "tanda_not_allowed")


def test_baodao_is_judged_on_the_33_cards():
    dealer_cards = baodao_dealer("8")
    hands, _ = make_deal({0: dealer_cards[0]}, dealer_cards[1])
    assert baodao_sets(hands[0]) == []  # five 8s dealt, two more in the kitty
    state = dealer_state(dealer_cards, (1, None, None, None))
    declare(state, "baodao")
    assert state.baodao_count == 1
    # The four jokers, split between the hand and the kitty, qualify too.
    state = dealer_state(("BJ LJ", "BJ LJ"), (1, None, None, None))
    assert {"seat": 0, "type": "declare", "kind": "baodao"} in ENGINE.legal_actions(state, 0)
    declare(state, "baodao")


@pytest.mark.parametrize(("held", "elsewhere"), [("888888", "88"), ("BJ BJ LJ", "LJ"), ("", "")])
def test_baodao_needs_a_seven_card_bomb_or_four_jokers(held, elsewhere):
    state = dealer_state((held, ""), (1, None, None, None), extra={2: elsewhere})
    assert baodao_sets(state.hands[0]) == []
    refused(state, {"seat": 0, "type": "declare", "kind": "baodao"}, "baodao_not_allowed")


def test_a_defender_with_a_big_hand_cannot_declare():
    state = dealer_state(QUICK, (1, None, None, None), extra={2: "BJBJLJLJ"})
    refused(state, {"seat": 2, "type": "declare", "kind": "baodao"}, "declare_not_allowed")


# -- play (§1.6) -------------------------------------------------------------------------------------------------


def test_the_dealer_must_lead():
    state = dealer_state(QUICK, (1, 2, None, None))
    refused(state, {"seat": 1, "type": "pass"}, "must_lead")
    refused(state, {"seat": 2, "type": "play", "cards": [state.hands[2][0]]}, "not_your_turn")
    refused(state, {"seat": 2, "type": "timeout"}, "not_your_turn")


def test_three_passes_end_a_round_and_the_last_player_leads_anything():
    state = dealer_state(QUICK, (1, None, None, None), runner=2)
    play(state, 0, "4")
    act(state, 1, "pass")
    play(state, 2, "2")
    passes(state, 2)
    assert state.to_act == 1 and state.last_seat == 2
    act(state, 1, "pass")  # ♥ passed before and passes again; the third pass in a row ends the round
    assert state.to_act == 2 and state.last_pattern is None and state.leader == 2
    assert ENGINE.legal_actions(state, 2) == []  # no pass on lead
    play(state, 2, "JJJQQQ6677")  # any pattern may lead
    assert ENGINE.view(state, Viewpoint("public"))["round"]["plays"][0]["pattern"]["kind"] == "plane"


def test_a_player_who_passed_may_play_again_in_the_round():
    state = dealer_state(QUICK, (1, None, None, None), runner=2)
    play(state, 0, "4")
    act(state, 1, "pass")
    act(state, 2, "pass")
    play(state, 3, "5")
    play(state, 0, "6")
    act(state, 1, "pass")
    play(state, 2, "2")  # ♣ passed earlier in this round
    assert state.last_seat == 2


def test_plays_are_checked_against_the_hand_the_patterns_and_the_last_play():
    state = dealer_state(QUICK, (1, None, None, None), extra={1: "33355 BJ"})
    refused(state, {"seat": 0, "type": "play", "cards": ["BJ"]}, "card_not_in_hand")
    refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, "34")}, "not_a_pattern")
    refused(state, {"seat": 0, "type": "play", "cards": ["X9"]}, "unknown_card")
    refused(state, {"seat": 0, "type": "play", "cards": []}, "bad_cards")
    play(state, 0, "33344")
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "33355")}, "does_not_beat")  # tripleOnly
    refused(state, {"seat": 1, "type": "play", "cards": ["BJ"]}, "does_not_beat")
    refused(state, {"seat": 1, "type": "bid", "value": 3}, "bidding_over")


def test_the_deal_ends_when_the_first_player_goes_out():
    state = dealer_state(QUICK, (1, None, None, None), runner=3)
    runner_goes_out(state, 3)
    assert ENGINE.status(state) == {"phase": "finished", "to_act": None, "finished": True}
    assert state.hands[0] and state.hands[3] == []
    result = ENGINE.result(state)
    assert (result["ending"], result["winner"], result["dealer_won"]) == ("out", 3, False)
    refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, "5")}, "deal_finished")
    refused(state, {"seat": 0, "type": "pass"}, "deal_finished")


def test_a_leaders_timeout_plays_the_lowest_single_and_a_followers_passes():
    state = dealer_state(QUICK, (1, None, None, None))
    act(state, 0, "timeout")
    assert [rank_of(c) for c in state.current_round[0]["cards"]] == ["3"]
    act(state, 1, "timeout")
    assert state.current_round[1] == {"seat": 1, "type": "pass"}


# -- fouls (§1.8, §1.10a.8) --------------------------------------------------------------------------------------


def foul(state, seat: int) -> None:
    act(state, seat, "foul", code="talking", note="说话")


def test_one_foul_changes_nothing_and_fouls_count_per_player():
    state = dealer_state(QUICK, (1, None, None, None))
    foul(state, 1)
    foul(state, 2)
    foul(state, 0)
    assert state.phase == "play"
    dealer_goes_out(state, QUICK_LEADS)
    assert scores(state) == [3, -1, -1, -1]


def test_a_defenders_second_foul_is_a_dealer_win_with_toulu_stake_four():
    state = dealer_state(QUICK, (3,))
    declare(state, "tanda")
    foul(state, 2)
    play(state, 0, "4")
    foul(state, 2)
    result = ENGINE.result(state)
    assert (result["ending"], result["offender"], result["dealer_won"], result["stake"]) == ("foul", 2, True, 4)
    assert result["scores"] == [24, -8, -8, -8]
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "5")}, "deal_finished")


def test_a_dealers_second_foul_is_a_loss_at_the_bid_without_the_baodao_factor_or_zeroing():
    state = dealer_state(baodao_dealer("8"), (3,))
    declare(state, "tanda")
    declare(state, "baodao")
    foul(state, 0)
    foul(state, 0)
    result = ENGINE.result(state)
    assert (result["dealer_won"], result["stake"], result["multipliers"]["baodao"]) == (False, 3, 1)
    assert result["scores"] == [-18, 6, 6, 6]  # u = 3 (not 4: a loss), M = 2 (摊打 only)


def test_declarations_after_the_second_foul_are_not_in_force():
    state = dealer_state(baodao_dealer("8"), (2, None, None, None))
    foul(state, 3)
    declare(state, "baodao")
    foul(state, 3)  # a dealer win with 报到 in force: ×2
    assert scores(state) == [12, -4, -4, -4]
    state = dealer_state(baodao_dealer("8"), (2, None, None, None))
    foul(state, 3)
    foul(state, 3)
    assert scores(state) == [6, -2, -2, -2]
    refused(state, {"seat": 0, "type": "declare", "kind": "baodao"}, "deal_finished")


def test_foul_loss_offender_only():
    options = {"sdy.foulLoss": "offenderOnly"}
    state = dealer_state(QUICK, (1, 2, None, None), options=options)
    foul(state, 3)
    foul(state, 3)
    assert scores(state) == [0, 2, 0, -2]
    state = dealer_state(QUICK, (3,), options=options)
    declare(state, "tanda")
    foul(state, 1)
    foul(state, 1)
    assert scores(state) == [8, -8, 0, 0]  # u·M = 4·2 (头撂 win, 摊打)
    # The dealer offending: `offenderOnly` changes nothing.
    state = dealer_state(QUICK, (1, 2, None, None), options=options)
    foul(state, 1)
    foul(state, 1)
    assert scores(state) == [2, -6, 2, 2]


def test_a_second_foul_during_bidding_voids_the_deal():
    state = new_state()
    bid(state, 1)
    foul(state, 2)
    bid(state, 2)
    foul(state, 2)
    result = ENGINE.result(state)
    assert public_result(result) == {"redeal": True, "scores": [0, 0, 0, 0]}
    assert (result["ending"], result["offender"]) == ("void", 2)
    assert SandayiTable().after_deal(SandayiTable().start({}, 4), {}, result)["deals"] == 0


def test_fouls_after_the_end_are_recorded_without_changing_the_result():
    state = dealer_state(QUICK, (1, None, None, None))
    dealer_goes_out(state, QUICK_LEADS)
    foul(state, 1)
    foul(state, 1)
    assert scores(state) == [3, -1, -1, -1] and len(state.fouls) == 2
    refused(state, {"seat": 1, "type": "foul", "code": "x", "note": "", "penalty": 1}, "bad_action")


def test_fouls_carry_no_points():
    state = new_state()
    refused(state, {"seat": 1, "type": "foul", "code": "talking", "note": "", "penalty": 2}, "bad_action")
    refused(state, {"seat": 1, "type": "foul", "note": "no code"}, "bad_action")


# -- ruleset switches (§1.4, §1.5, §1.7, §1.8) ------------------------------------------------------------------


@pytest.mark.parametrize(("compare", "accepted"), [("tripleOnly", False), ("tripleThenPair", True)])
def test_option_full_house_compare(compare, accepted):
    state = dealer_state(QUICK, (1, None, None, None), options={"sdy.fullHouseCompare": compare},
                         extra={1: "33355"})
    play(state, 0, "33344")
    action = {"seat": 1, "type": "play", "cards": take(state, 1, "33355")}
    if accepted:
        ENGINE.apply(state, action)
    else:
        refused(state, action, "does_not_beat")
    # Equal triple and equal pair never beat (§1.10a.11).
    state = dealer_state(QUICK, (1, None, None, None), options={"sdy.fullHouseCompare": compare},
                         extra={1: "33344"})
    play(state, 0, "33344")
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "33344")}, "does_not_beat")


@pytest.mark.parametrize(("bids", "tanda", "expected"), [((2, None, None, None), False, [6, -2, -2, -2]),
                                                         ((3,), True, [24, -8, -8, -8])])
def test_option_baodao_instant_win(bids, tanda, expected):
    """直接赢 ends the deal as a dealer win without the 报到 ×2 (头撂 still makes u = 4, 摊打 still doubles)."""
    state = dealer_state(baodao_dealer("8"), bids, options={"sdy.baodao.instantWin": True})
    if tanda:
        declare(state, "tanda")
    declare(state, "baodao")
    result = ENGINE.result(state)
    assert (result["ending"], result["dealer_won"], result["multipliers"]["baodao"]) == ("instant", True, 1)
    assert result["scores"] == expected
    refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, "4")}, "deal_finished")


def test_option_baodao_lock_cards():
    state = dealer_state(baodao_dealer("8"), (1, None, None, None), options={"sdy.baodao.lockCards": True})
    declare(state, "baodao")
    assert [sorted(rank_of(c) for c in s) for s in state.locked] == [["8"] * 7]
    assert ENGINE.view(state, Viewpoint("public"))["locked"] == state.locked  # shown to the table
    for part in ("8888", "8", "88", "888", "88855"):  # a smaller bomb, a single, a pair, a triple, 三带二
        refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, part)}, "locked_cards")
    dealer_goes_out(state, baodao_leads("8"))  # the seven 8s leave whole
    assert scores(state) == [6, -2, -2, -2]
    # Without the switch the cards are free.
    state = dealer_state(baodao_dealer("8"), (1, None, None, None))
    declare(state, "baodao")
    play(state, 0, "8888")


def test_option_baodao_lock_cards_timeout_leads_a_free_card():
    state = dealer_state(baodao_dealer("8"), (1, None, None, None), options={"sdy.baodao.lockCards": True})
    declare(state, "baodao")
    act(state, 0, "timeout")
    assert [rank_of(c) for c in state.current_round[0]["cards"]] == ["3"]


@pytest.mark.parametrize(("per_set", "expected"), [(False, [6, -2, -2, -2]), (True, [12, -4, -4, -4])])
def test_option_baodao_per_set(per_set, expected):
    """双报到: the four jokers and seven 8s are two sets; `perSet` gives ×2 per set (×4)."""
    state = dealer_state(("BJBJLJLJ 8888 3344556677 TTJJQQK", "KAA22 888"), (1, None, None, None),
                         options={"sdy.baodao.perSet": per_set})
    assert len(baodao_sets(state.hands[0])) == 2
    declare(state, "baodao")
    dealer_goes_out(state, ["BJBJLJLJ", "8888888", "3344556677", "TTJJQQKKAA", "22"])
    assert scores(state) == expected
    assert ENGINE.result(state)["multipliers"]["baodao"] == (4 if per_set else 2)


BOMBS_DEALER = ("BJBJLJLJ 99999999 5555 334455667", "7 TTTJJ QQ")
BOMBS_LEADS = ["BJBJLJLJ", "99999999", "5555", "3344556677", "TTTJJ", "QQ"]


@pytest.mark.parametrize(
    ("rule", "dealer", "leads", "expected"),
    [
        ("none", BOMBS_DEALER, BOMBS_LEADS, [3, -1, -1, -1]),
        ("x2each", BOMBS_DEALER, BOMBS_LEADS, [24, -8, -8, -8]),  # three bombs: ×8
        ("tiered", BOMBS_DEALER, BOMBS_LEADS, [27, -9, -9, -9]),  # 天王炸弹 ×3, 8-card ×3, 4-card ×1
        ("tiered", baodao_dealer("8"), baodao_leads("8"), [6, -2, -2, -2]),  # one 7-card bomb ×2
        ("x2each", baodao_dealer("8"), baodao_leads("8"), [6, -2, -2, -2]),
    ],
)
def test_option_bomb_multiplier(rule, dealer, leads, expected):
    state = dealer_state(dealer, (1, None, None, None), options={"sdy.bombMultiplier": rule})
    dealer_goes_out(state, leads)
    assert scores(state) == expected


def test_option_bomb_multiplier_counts_defenders_bombs_and_six_card_bombs():
    state = dealer_state(baodao_dealer("8"), (1, None, None, None), runner=2, extra={1: "999999 3"},
                         options={"sdy.bombMultiplier": "tiered"})
    play(state, 0, "4")
    play(state, 1, "999999")  # a 6-card bomb: ×2 under `tiered`
    passes(state)
    play(state, 1, "3")
    play(state, 2, "2")
    passes(state)
    play(state, 2, STRAIGHT14)
    passes(state)
    play(state, 2, "JJJQQQ6677")
    assert ENGINE.result(state)["multipliers"]["bomb"] == 2
    assert scores(state) == [-6, 2, 2, 2]


@pytest.mark.parametrize(("spring", "expected"), [(False, [3, -1, -1, -1]), (True, [6, -2, -2, -2])])
def test_option_spring(spring, expected):
    state = dealer_state(QUICK, (1, None, None, None), options={"sdy.spring": spring})
    dealer_goes_out(state, QUICK_LEADS)  # no defender played
    assert scores(state) == expected


@pytest.mark.parametrize(("spring", "expected"), [(False, [-3, 1, 1, 1]), (True, [-6, 2, 2, 2])])
def test_option_spring_reverse(spring, expected):
    state = dealer_state(QUICK, (1, None, None, None), runner=1, options={"sdy.spring": spring})
    runner_goes_out(state, 1)  # the dealer made one play, the opening lead
    assert scores(state) == expected


def test_option_spring_needs_a_clean_sweep():
    state = dealer_state(baodao_dealer("8"), (1, None, None, None), options={"sdy.spring": True})
    play(state, 0, "4")
    play(state, 1, "5")  # a defender played
    act(state, 2, "pass")
    act(state, 3, "pass")
    play(state, 0, "8888888")
    passes(state)
    dealer_goes_out(state, ["3344556677", "TTJJQQKKAA", "22255"])
    assert scores(state) == [3, -1, -1, -1]


@pytest.mark.parametrize(
    "options",
    [{"sdy.fullHouseCompare": "pairOnly"}, {"sdy.bombMultiplier": "x3"}, {"sdy.spring": "maybe"},
     {"sdy.foulLoss": "nobody"}, {"sdy.earlyRoundDeals": 6}, {"sdy.baodao.perSet": 2}],
)
def test_bad_options_are_refused(options):
    record = new_state().record
    record["options"] = options
    assert check_record(record)["code"] == "bad_options"


def test_option_defaults():
    resolved = ENGINE.resolve_options({})
    assert resolved | DEFAULTS == resolved  # the documented defaults (§1.4–1.9)


DEFAULTS = {
    "sdy.fullHouseCompare": "tripleOnly", "sdy.baodao.instantWin": False, "sdy.baodao.lockCards": False,
    "sdy.baodao.perSet": False, "sdy.bombMultiplier": "none", "sdy.spring": False, "sdy.foulLoss": "side",
    "sdy.earlyRoundDeals": 8,
}


# -- views (§1.1, §1.6, §1.10a.12) ------------------------------------------------------------------------------


def _counts(state, viewpoint: Viewpoint) -> list:
    return [s["count"] for s in ENGINE.view(state, viewpoint)["seats"]]


def _hands_seen(state, viewpoint: Viewpoint) -> list[int]:
    return [s["seat"] for s in ENGINE.view(state, viewpoint)["seats"] if "hand" in s]


def test_hand_sizes_are_public_only_at_ten_or_fewer():
    state = dealer_state(QUICK, (1, None, None, None))
    assert _counts(state, Viewpoint("public")) == [">10"] * 4
    assert _counts(state, Viewpoint("seat", 0)) == [33, ">10", ">10", ">10"]
    assert _counts(state, Viewpoint("seat", 2)) == [">10", ">10", 25, ">10"]
    assert _counts(state, Viewpoint("referee")) == [33, 25, 25, 25]
    play(state, 0, STRAIGHT14)
    passes(state)
    assert _counts(state, Viewpoint("public"))[0] == ">10"  # 19
    play(state, 0, "A23456789T")  # a 10-card straight leaves 9
    assert len(state.hands[0]) == 9
    assert _counts(state, Viewpoint("public")) == [9, ">10", ">10", ">10"]
    assert _counts(state, Viewpoint("seat", 3)) == [9, ">10", ">10", 25]


def test_hands_are_hidden_from_others_until_tanda():
    state = dealer_state(QUICK, (3,))
    assert _hands_seen(state, Viewpoint("public")) == []
    assert _hands_seen(state, Viewpoint("seat", 1)) == [1]
    assert _hands_seen(state, Viewpoint("referee")) == [0, 1, 2, 3]
    declare(state, "tanda")
    assert state.exposed == [True, False, False, False]
    public = ENGINE.view(state, Viewpoint("public"))
    assert _hands_seen(state, Viewpoint("public")) == [0]
    assert _hands_seen(state, Viewpoint("seat", 2)) == [0, 2]
    assert public["seats"][0]["count"] == 33 and Counter(public["seats"][0]["hand"]) == Counter(state.hands[0])
    assert public["seats"][0]["exposed"] is True and public["declared"] == ["tanda"]


def test_the_kitty_is_seen_by_the_referee_and_the_dealer_only():
    state = new_state(first=1)
    kitty = list(state.kitty)
    bid(state, 1, 2)
    for viewpoint in ("public", "seat:1", "seat:2", "seat:3", "seat:0"):
        assert ENGINE.view(state, Viewpoint.parse(viewpoint, 4))["kitty"] is None  # nobody until bidding ends
    assert ENGINE.view(state, Viewpoint("referee"))["kitty"] == kitty
    assert ENGINE.view(state, Viewpoint("public"))["dealer"] is None  # the highest bid may still be overbid
    bid(state, None, None)
    assert state.dealer == 2
    assert ENGINE.view(state, Viewpoint("seat", 2))["kitty"] == kitty
    assert ENGINE.view(state, Viewpoint("referee"))["kitty"] == kitty
    for viewpoint in ("public", "seat:0", "seat:1", "seat:3"):
        view = ENGINE.view(state, Viewpoint.parse(viewpoint, 4))
        assert view["kitty"] is None and view["dealer"] == 2


def test_a_finished_deal_still_hides_hands_and_the_kitty():
    state = dealer_state(QUICK, (1, None, None, None))
    dealer_goes_out(state, QUICK_LEADS)
    public = ENGINE.view(state, Viewpoint("public"))
    assert public["kitty"] is None and _hands_seen(state, Viewpoint("public")) == []
    assert public["result"]["scores"] == [3, -1, -1, -1]


# -- refused actions and records ---------------------------------------------------------------------------------


def test_refused_actions_leave_the_state_unchanged_in_every_phase():
    state = dealer_state(baodao_dealer("8"), (2, None, None, None), options={"sdy.baodao.lockCards": True},
                         runner=1)
    declare(state, "baodao")
    before_view = ENGINE.view(state, Viewpoint("referee"))
    for action, code in [
        ({"seat": 0, "type": "pass"}, "must_lead"),
        ({"seat": 0, "type": "play", "cards": take(state, 0, "8888")}, "locked_cards"),
        ({"seat": 0, "type": "play", "cards": take(state, 0, "35")}, "not_a_pattern"),
        ({"seat": 0, "type": "play", "cards": ["BJ", "BJ"]}, "card_not_in_hand"),
        ({"seat": 1, "type": "play", "cards": take(state, 1, "2")}, "not_your_turn"),
        ({"seat": 0, "type": "declare", "kind": "baodao"}, "already_declared"),
        ({"seat": 0, "type": "declare", "kind": "tanda"}, "tanda_not_allowed"),
        ({"seat": 0, "type": "bid", "value": 3}, "bidding_over"),
        ({"seat": 4, "type": "pass"}, "bad_seat"),
        ({"seat": 0, "type": "dance"}, "unknown_action"),
        ({"seat": 0, "type": "foul", "code": "talking", "note": "x", "penalty": 1}, "bad_action"),
    ]:
        refused(state, action, code)
    assert ENGINE.view(state, Viewpoint("referee")) == before_view
    play(state, 0, "4")
    refused(state, {"seat": 1, "type": "play", "cards": take(state, 1, "JJJQQQ6677")}, "does_not_beat")


def _baodao_loss_record() -> dict:
    state = dealer_state(baodao_dealer("8"), (2, None, None, None), runner=3)
    declare(state, "baodao")
    runner_goes_out(state, 3)
    return state.record


def test_a_hand_built_record_checks_and_survives_json():
    import json

    record = json.loads(json.dumps(_baodao_loss_record()))
    assert check_record(record) == {"ok": True, "result": {"scores": [0, 0, 0, 0]}}
    record["result"] = {"scores": [0, 0, 0, 0]}
    assert check_record(record)["ok"] is True
    record["result"] = {"scores": [-6, 2, 2, 2]}
    assert check_record(record)["code"] == "result_mismatch"


@pytest.mark.parametrize(
    ("index", "change", "code"),
    [
        (0, {"seat": 0, "type": "pass"}, "must_bid"),
        (0, {"seat": 1, "type": "bid", "value": 2}, "not_your_turn"),
        (1, {"seat": 1, "type": "bid", "value": 2}, "bid_too_low"),
        (1, {"seat": 1, "type": "play", "cards": ["S3"]}, "bad_bid"),
        (4, {"seat": 1, "type": "declare", "kind": "baodao"}, "declare_not_allowed"),
        (5, {"seat": 0, "type": "declare", "kind": "tanda"}, "tanda_not_allowed"),
        (5, {"seat": 1, "type": "play", "cards": ["S4"]}, "not_your_turn"),
        (5, {"seat": 0, "type": "play", "cards": ["BJ"]}, "card_not_in_hand"),
    ],
)
def test_check_names_the_first_bad_action(index, change, code):
    record = _baodao_loss_record()
    assert [a["type"] for a in record["actions"][:6]] == ["bid", "pass", "pass", "pass", "declare", "play"]
    record["actions"][index] = change
    report = check_record(record)
    assert (report["ok"], report.get("action"), report["code"]) == (False, index, code), report


def test_a_record_that_stops_early_is_incomplete():
    record = _baodao_loss_record()
    record["actions"] = record["actions"][:-1]
    report = check_record(record)
    assert report["code"] == "incomplete" and "action" not in report
    record = _baodao_loss_record()
    record["actions"].append({"seat": 0, "type": "pass"})
    assert check_record(record)["code"] == "deal_finished"


def test_the_view_names_each_plays_pattern_as_the_viewer_reads_it():
    """The replay viewer (replay_ui/shared/static/fupan.js `currentRound`) shows each play of the round with its
    pattern's name in both languages (§1.3's table: 双顺 a pair run)."""
    state = dealer_state(baodao_dealer("9"), (3,))
    play(state, state.dealer, "3344556677")
    (shown,) = ENGINE.view(state, Viewpoint("public"))["round"]["plays"]
    assert shown["seat"] == state.dealer and set(shown["pattern"]) == {"kind", "size", "key", "zh", "en"}
    assert {k: shown["pattern"][k] for k in ("kind", "size", "zh", "en")} == {
        "kind": "pair_run", "size": 10, "zh": "双顺", "en": "pair run"}


def test_the_same_bomb_does_not_beat_itself():
    """§1.4: between bombs more cards win, and at equal size the higher rank: an equal bomb (two decks hold eight
    of a rank) is not higher."""
    assert not wins("9999", "9999") and wins("TTTT", "9999") and wins("99999", "TTTT")


# -- what a view shows and what the turn offers (§1.5, §1.10a.12, docs/SECURITY.md §4) ---------------------------


def test_the_view_shows_roles_bids_bomb_allowances_and_counts_above_10_as_more_than_10():
    """§1.5's allowance table (bid 1 → 1 bomb, bid 2 → 2, the dealer and a seat never asked: any), every bid and
    play public, and §1.10a.12: a hand size above 10 is ">10" for whoever cannot see the hand."""
    bombs = {0: "5555 6666", 1: "7777 8888 KKKK", 3: "TTTT JJJJ QQQQ"}
    state = dealer_state(QUICK, (1, 2, 3), extra=bombs)
    play(state, 2, STRAIGHT14)
    act(state, 3, "pass")
    play(state, 0, "5555")
    for viewpoint in (Viewpoint("public"), Viewpoint("seat", 1)):
        view = ENGINE.view(state, viewpoint)
        assert view["viewpoint"] == str(viewpoint)
        assert view["dealer"] == 2 and view["bid"] == 3 and view["toulu"] is False
        assert view["bidding"] == [{"seat": 0, "type": "bid", "value": 1}, {"seat": 1, "type": "bid", "value": 2},
                                   {"seat": 2, "type": "bid", "value": 3}]
        seats = view["seats"]
        assert [s["name"] for s in seats] == ["甲", "乙", "丙", "丁"]
        assert [s["role"] for s in seats] == ["defender", "defender", "dealer", "defender"]
        assert [s["bombs_allowed"] for s in seats] == [1, 2, None, None]
        assert [s["bombs_played"] for s in seats] == [1, 0, 0, 0]
        assert [rank_of(c) for c in seats[0]["played"]] == ["5"] * 4 and len(seats[2]["played"]) == 14
        assert [seats[s]["count"] for s in (0, 2, 3)] == [">10", ">10", ">10"]
    own = ENGINE.view(state, Viewpoint("seat", 1))["seats"][1]
    assert own["count"] == 25 and len(own["hand"]) == 25
    # the hand listed from the highest rank down (§1.2's order: 3 lowest … A, 2, 小王, 大王)
    positions = [RANK_ORDER.index(rank_of(c)) for c in own["hand"]]
    assert positions == sorted(positions, reverse=True) and len(set(positions)) > 1
    referee = ENGINE.view(state, Viewpoint("referee"))["seats"]
    assert [s["count"] for s in referee] == [21, 25, 19, 25]
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}]  # following: 不出 allowed
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.legal_actions(state, 0) == []


def test_before_any_bid_nobody_has_a_role_or_an_allowance():
    view = ENGINE.view(new_state(), Viewpoint("public"))
    assert [(s["role"], s["bombs_allowed"]) for s in view["seats"]] == [(None, None)] * 4
    assert view["dealer"] is None and view["bidding"] == [] and view["bid"] == 0


def test_only_the_dealer_may_declare_and_only_before_its_first_play():
    """§1.5–1.6: 摊打 in a 头撂 deal is the dealer's, before the dealer's first play; a defender, who never declares,
    is offered 不出 when following."""
    state = dealer_state(QUICK, (3,))
    assert state.toulu and ENGINE.legal_actions(state, 0) == [{"seat": 0, "type": "declare", "kind": "tanda"}]
    play(state, 0, "33344")
    assert ENGINE.legal_actions(state, 1) == [{"seat": 1, "type": "pass"}]
    assert ENGINE.legal_actions(state, 0) == []


def test_a_finished_deal_shows_its_last_round_its_result_every_pass_and_every_foul():
    """§1.6: the deal ends with the first player out; its last round stays in the record. Bids and 不叫 are public,
    a foul (seat and code) is announced (docs/SECURITY.md §4)."""
    bidding = new_state()
    bid(bidding, 1, None)
    assert ENGINE.view(bidding, Viewpoint("public"))["bidding"] == [
        {"seat": 0, "type": "bid", "value": 1}, {"seat": 1, "type": "pass"}]
    state = dealer_state(QUICK, (3,))
    act(state, 1, "foul", code=ENGINE.foul_codes[0][0], note="x")
    dealer_goes_out(state, QUICK_LEADS)
    view = ENGINE.view(state, Viewpoint("public"))
    assert [(f["seat"], f["code"]) for f in view["fouls"]] == [(1, ENGINE.foul_codes[0][0])]
    assert view["result"] is not None and view["result"] == ENGINE.result(state)
    assert view["multipliers"] == ENGINE.multipliers(state)
    assert view["round"]["plays"] == [] and view["rounds_played"] == 3
    assert [(p["seat"], p["type"]) for p in view["last_round"]] == [(0, "play")]
    assert sorted(rank_of(c) for c in view["last_round"][0]["cards"]) == ["3", "3", "3", "4", "4"]


def test_under_lock_cards_the_four_jokers_are_a_set_and_a_set_played_whole_is_no_longer_locked():
    """§1.5: the four jokers qualify a 报到 as a 7-card bomb does; `sdy.baodao.lockCards`: each set is shown and
    leaves the hand only whole; once played it is no longer shown as held."""
    options = {"sdy.baodao.lockCards": True}
    state = dealer_state(("BJBJLJLJ 8888 3344556677 TTJJQQK", "KAA22 888"), (1, None, None, None), options=options)
    declare(state, "baodao")
    shown = ENGINE.view(state, Viewpoint("public"))["locked"]
    assert sorted(sorted(rank_of(c) for c in s) for s in shown) == [["8"] * 7, ["BJ", "BJ", "LJ", "LJ"]]
    refused(state, {"seat": 0, "type": "play", "cards": take(state, 0, "BJ")}, "locked_cards")
    play(state, 0, "BJBJLJLJ")
    assert [sorted(rank_of(c) for c in s) for s in ENGINE.view(state, Viewpoint("public"))["locked"]] == [["8"] * 7]


def test_under_lock_cards_a_dealer_holding_only_its_set_leads_it_whole_on_a_timeout():
    """§1.10a (timeouts): a leader plays the lowest single it may play; under `lockCards` a free card first, and
    with none left the set, whole (the only way it may leave the hand)."""
    state = dealer_state(baodao_dealer("8"), (1, None, None, None), options={"sdy.baodao.lockCards": True})
    declare(state, "baodao")
    for lead in ("3344556677", "TTJJQQKKAA", "22255", "4"):
        play(state, 0, lead)
        passes(state)
    assert sorted(rank_of(c) for c in state.hands[0]) == ["8"] * 7
    act(state, 0, "timeout")
    assert state.phase == "finished" and state.winner == 0
    assert ENGINE.view(state, Viewpoint("public"))["locked"] == []  # the set has left the hand


def test_under_lock_cards_a_timeout_with_two_sets_left_leads_the_lower_set():
    options = {"sdy.baodao.lockCards": True}
    state = dealer_state(("BJBJLJLJ 8888 3344556677 TTJJQQK", "KAA22 888"), (1, None, None, None), options=options)
    declare(state, "baodao")
    for lead in ("3344556677", "TTJJQQKKAA", "22"):
        play(state, 0, lead)
        passes(state)
    act(state, 0, "timeout")
    assert sorted(rank_of(c) for c in state.current_round[0]["cards"]) == ["8"] * 7  # the 8s, not the jokers


def test_a_deal_ended_by_a_foul_keeps_its_unfinished_round():
    """§1.8, §1.10a.8: a seat's second foul once the dealer is known ends the deal; the round in play at that
    moment is the deal's last round (the replay shows it)."""
    state = dealer_state(QUICK, (3,))
    play(state, 0, "33344")
    code = ENGINE.foul_codes[0][0]
    act(state, 1, "foul", code=code, note="x")
    act(state, 1, "foul", code=code, note="y")
    view = ENGINE.view(state, Viewpoint("public"))
    assert view["phase"] == "finished" and view["round"]["plays"] == [] and view["rounds_played"] == 1
    assert [(p["seat"], p["type"]) for p in view["last_round"]] == [(0, "play")]


def test_a_refused_play_names_its_cards_as_cards_and_whose_hand_they_are_not_in():
    """A refusal names cards as ♠A ♥10 (never codes) and a card not held names its seat."""
    state = dealer_state(QUICK, (3,))
    missing = next(c for c in ("BJ", "LJ") if c not in state.hands[0])
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "play", "cards": [missing]})
    assert error.value.code == "card_not_in_hand" and error.value.details["seat"] == 0
    pair = take(state, 0, "3 4")
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 0, "type": "play", "cards": pair})
    assert error.value.code == "not_a_pattern" and pair[0] not in error.value.message
    assert any(suit in error.value.message for suit in "♠♥♣♦")
    play(state, 0, "33344")
    weak = take(state, 1, "3")
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, {"seat": 1, "type": "play", "cards": weak})
    assert error.value.code == "does_not_beat" and weak[0] not in error.value.message_zh
    assert any(suit in error.value.message_zh for suit in "♠♥♣♦")


def test_a_hand_of_exactly_10_cards_is_counted_in_public():
    """§1.10a.12: hand sizes are public exactly when ≤ 10 — a hand down to 10 is shown as 10, not ">10"."""
    state = dealer_state(QUICK, (3,), runner=1)
    play(state, state.dealer, "4")
    while state.to_act != 1:
        act(state, state.to_act, "pass")
    play(state, 1, "2")
    passes(state)
    play(state, 1, STRAIGHT14)
    assert len(state.hands[1]) == 10
    assert ENGINE.view(state, Viewpoint("public"))["seats"][1]["count"] == 10
