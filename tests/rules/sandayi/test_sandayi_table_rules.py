"""The 三打一 table as docs/rules/sandayi.md §1.1 and §1.9 state it, called directly (no service)."""

from __future__ import annotations

import pytest

from domain.games.sandayi.table import SandayiTable

TABLE = SandayiTable()


def deal(scores: list[int], dealer: int, bid: int) -> dict:
    return {"scores": scores, "dealer": dealer, "bid": bid}


VOID = {"redeal": True, "scores": [0, 0, 0, 0], "ending": "void", "offender": 2}


def test_a_table_starts_at_0_with_nobody_having_dealt():
    assert TABLE.start({}, 4) == {"scores": [0, 0, 0, 0], "deals": 0, "dealt": [0, 0, 0, 0],
                                  "dealer_bids": [[], [], [], []], "end": None}


@pytest.mark.parametrize("first", [0, 3])
def test_deal_k_starts_one_seat_on_and_a_voided_deal_keeps_its_first_bidder(first: int):
    """§1.1: deal k starts at seat (k − 1) mod 4 from the table's first seat; a voided deal (§1.10a.8) keeps its
    first bidder and counts nothing."""
    standing = TABLE.start({}, 4)
    assert TABLE.first_seat(standing, first, 1, 4) == first
    standing = TABLE.after_deal(standing, {}, deal([6, -2, -2, -2], 0, 1))
    assert TABLE.first_seat(standing, first, 2, 4) == (first + 1) % 4
    voided = TABLE.after_deal(standing, {}, VOID)
    assert voided == standing and TABLE.first_seat(voided, first, 3, 4) == (first + 1) % 4
    for _ in range(3):
        standing = TABLE.after_deal(standing, {}, deal([0, 0, 0, 0], 1, 2))
    assert TABLE.first_seat(standing, first, 5, 4) == first  # four deals on: back to the first seat


def test_the_standing_sums_the_scores_and_counts_each_seats_deals_and_bids_as_dealer():
    """§1.9: total score, 庄家数量 (deals dealt) and 庄家难度 (the winning bids as dealer, 头撂 = 3)."""
    standing = TABLE.start({}, 4)
    standing = TABLE.after_deal(standing, {}, deal([6, -2, -2, -2], 0, 2))
    standing = TABLE.after_deal(standing, {}, deal([1, -3, 1, 1], 1, 3))
    standing = TABLE.after_deal(standing, {}, deal([-3, -3, 9, -3], 2, 1))
    standing = TABLE.after_deal(standing, {}, deal([-2, -2, -2, 6], 3, 1))
    standing = TABLE.after_deal(standing, {}, deal([3, -1, -1, -1], 0, 3))
    assert standing == {"scores": [5, -11, 5, 1], "deals": 5, "dealt": [2, 1, 1, 1],
                        "dealer_bids": [[2, 3], [3], [1], [1]], "end": None}


@pytest.mark.parametrize(("deals", "option"), [
    (8, {}), (4, {"sdy.earlyRoundDeals": 4}), (8, {"sdy.earlyRoundDeals": 8})])
def test_the_table_ends_after_its_number_of_deals(deals: int, option: dict):
    """§1.9: 8 deals a table by default (`sdy.earlyRoundDeals`; S000's first rounds 4); a void counts none."""
    standing = TABLE.start(option, 4)
    for number in range(deals):
        standing = TABLE.after_deal(standing, option, VOID)
        assert standing["end"] is None
        standing = TABLE.after_deal(standing, option, deal([3, -1, -1, -1], number % 4, 1))
        assert (standing["end"] is None) == (number < deals - 1)
    assert standing["end"] == {"winner": 0, "by": "deals"}


def table_of(scores: list[int], dealt: list[int], bids: list[list[int]]) -> dict:
    return {"scores": scores, "deals": 7, "dealt": dealt, "dealer_bids": bids, "end": None}


@pytest.mark.parametrize(("standing", "winner"), [
    # the total first, then more deals dealt, then the higher sum of bids as dealer (§1.9 [REC]); equal: lots
    (table_of([4, 9, -7, -6], [2, 2, 2, 1], [[1, 1], [1, 1], [2, 2], [3]]), 1),
    (table_of([4, 4, -4, -4], [2, 3, 2, 0], [[3, 3], [1, 1, 1], [1, 1], []]), 1),
    (table_of([4, 4, -4, -4], [2, 2, 3, 0], [[3, 1], [2, 1], [1, 1, 1], []]), 0),
    (table_of([4, 4, -4, -4], [2, 2, 3, 0], [[2, 1], [2, 1], [1, 1, 1], []]), None),
    (table_of([-2, -2, -2, 6], [2, 2, 2, 1], [[1, 1], [1, 1], [1, 1], [1]]), 3),
])
def test_the_winner_is_the_seat_alone_on_top_by_total_then_deals_dealt_then_bids(standing: dict, winner):
    ended = TABLE.after_deal(standing, {}, deal([0, 0, 0, 0], 3, 1))
    assert ended["end"] == {"winner": winner, "by": "deals"}
