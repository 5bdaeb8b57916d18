"""三打一 stakes at every boundary of docs/rules/sandayi.md §1.7, against a table-driven oracle written from the
document (not from the engine's result): u = the bid, 4 for a 头撂 the dealer wins; M = 摊打 ×2 × the bomb factor
of every bomb played under `sdy.bombMultiplier` — `x2each` ×2 each, `tiered` ×1 for 4–5 cards, ×2 for 6–7, ×3 for
8 or 天王炸弹. The existing vectors left the 5-card bomb (the 5 | 6 boundary of `tiered`) and several bombs of
each tier in one deal untested; here the dealer plays them on the real engine and goes out.
"""

from __future__ import annotations

import pytest
from test_sandayi_rules import dealer_goes_out, dealer_state, declare, ranks

# §1.7 `tiered`: (fewest cards of the row, factor); 天王炸弹 is ×3.
TIERED = ((8, 3), (6, 2), (4, 1))
KING_BOMB = "BJBJLJLJ"


def doc_bomb_factor(bomb: str, rule: str) -> int:
    if rule == "none":
        return 1
    if rule == "x2each":
        return 2
    if bomb == KING_BOMB:
        return 3
    return next(factor for fewest, factor in TIERED if len(ranks(bomb)) >= fewest)


def doc_scores(dealer: int, bid: int, toulu: bool, tanda: bool, bombs: list[str], rule: str) -> list[int]:
    """The dealer wins: dealer +3·u·M, each defender −u·M (§1.7)."""
    u = 4 if toulu else bid
    m = 2 if tanda else 1
    for bomb in bombs:
        m *= doc_bomb_factor(bomb, rule)
    return [3 * u * m if s == dealer else -u * m for s in range(4)]


# Single ranks the dealer leads one by one after its bombs (the defenders pass every round); never 9s, 8s, 7s or
# jokers, which the bombs use.
FILLER = "3334445556661010JJJQQQKKKAAA222"


def dealer_with(bombs: list[str]) -> tuple[tuple[str, str], list[str]]:
    """The dealer's 33 cards (25 dealt, 8 in the kitty): `bombs` and single filler cards; its leads."""
    bomb_ranks = [r for bomb in bombs for r in ranks(bomb)]
    filler = ranks(FILLER)[:33 - len(bomb_ranks)]
    held = bomb_ranks + filler
    assert len(held) == 33
    return (" ".join(held[:25]), " ".join(held[25:])), bombs + filler


@pytest.mark.parametrize("rule", ["none", "x2each", "tiered"])
@pytest.mark.parametrize("bomb", ["9999", "99999", "999999", "9999999", "99999999", KING_BOMB])
def test_one_bomb_of_each_size_under_each_rule(bomb, rule):
    cards, leads = dealer_with([bomb])
    state = dealer_state(cards, (1, None, None, None), options={"sdy.bombMultiplier": rule})
    dealer_goes_out(state, leads)
    expected = doc_scores(0, 1, False, False, [bomb], rule)
    assert state.record and check_scores(state) == expected
    tiered = {"9999": 1, "99999": 1, "999999": 2, "9999999": 2, "99999999": 3, KING_BOMB: 3}
    vector = {"none": 1, "x2each": 2, "tiered": tiered[bomb]}[rule]
    assert expected == [3 * vector, -vector, -vector, -vector]  # the document's figure, literally


@pytest.mark.parametrize(("rule", "m"), [("none", 1), ("x2each", 16), ("tiered", 1 * 2 * 3 * 3)])
def test_several_bombs_of_every_tier_in_one_deal(rule, m):
    """A 5-card, a 6-card and an 8-card bomb and 天王炸弹, by a 头撂 dealer with 摊打: u = 4, M = 2 × bombs."""
    bombs = ["77777", "888888", "99999999", KING_BOMB]
    cards, leads = dealer_with(bombs)
    state = dealer_state(cards, (3,), options={"sdy.bombMultiplier": rule})
    declare(state, "tanda")
    dealer_goes_out(state, leads)
    assert check_scores(state) == doc_scores(0, 3, True, True, bombs, rule) == [24 * m, -8 * m, -8 * m, -8 * m]


@pytest.mark.parametrize(("bids", "dealer", "u"), [((1, None, None, None), 0, 1), ((1, 2, None, None), 1, 2),
                                                   ((1, 2, 3), 2, 3), ((2, 3), 1, 3), ((3,), 0, 4)])
def test_each_bid_and_the_toulu_win(bids, dealer, u):
    """u is the winning bid; only a 头撂 (the first bidder opening with 3) won by the dealer makes it 4 (§1.7)."""
    cards, leads = dealer_with(["99999"])
    state = dealer_state(cards, bids, options={"sdy.bombMultiplier": "x2each"})
    dealer_goes_out(state, leads)
    toulu = bids == (3,)
    assert check_scores(state) == doc_scores(dealer, max(b for b in bids if b), toulu, False, ["99999"], "x2each")
    assert check_scores(state)[dealer] == 3 * u * 2


def check_scores(state) -> list[int]:
    """The scores `fupan check` finds for the record the test applied (the real record path, not the state)."""
    from domain.records.format import check_record

    report = check_record(state.record)
    assert report["ok"], report
    return report["result"]["scores"]
