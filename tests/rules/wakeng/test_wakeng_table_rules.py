"""The 挖坑 table as docs/rules/wakeng.md B7 ("The table") and B11.8 state it, called directly (no service)."""

from __future__ import annotations

import pytest

from domain.games.wakeng.table import WakengTable

TABLE = WakengTable()


def test_board_k_is_the_tables_kth_deal_and_the_cards_name_the_first_bidder():
    """B7: board k is the table's k-th deal (`context.board` = k); the first bidder follows from the cards, so the
    table deals from seat 0 whatever `first` it was opened with (B1, B11.8)."""
    standing = TABLE.start({}, 3)
    assert standing == {"scores": [0, 0, 0], "deals": 0, "end": None}
    assert TABLE.context(standing) == {"board": 1} and TABLE.board(TABLE.context(standing)) == 1
    assert [TABLE.first_seat(standing, first, 1, 3) for first in range(3)] == [0, 0, 0]
    standing = TABLE.after_deal(standing, {}, {"scores": [4, -2, -2], "board": 1})
    assert TABLE.context(standing) == {"board": 2} and TABLE.board({"board": 2}) == 2


@pytest.mark.parametrize(("boards", "options"), [(6, {}), (2, {"wk.tableDeals": 2}), (1, {"wk.tableDeals": 1})])
def test_the_table_sums_raw_scores_over_its_boards_and_has_no_winner(boards: int, options: dict):
    """B7: `wk.tableDeals` boards (6 by default); the table sums raw scores and has no winner of its own."""
    standing = TABLE.start(options, 3)
    for number in range(1, boards + 1):
        assert standing["end"] is None
        standing = TABLE.after_deal(standing, options, {"scores": [2, -1, -1], "board": number})
    assert standing == {"scores": [2 * boards, -boards, -boards], "deals": boards,
                        "end": {"winner": None, "by": "boards"}}


def test_each_seats_facts_carry_the_board_it_is_compared_on():
    """B7, B11.8: a seat is compared with the same board and seat at the round's other tables."""
    result = {"scores": [4, -2, -2], "board": 3, "seat_facts": {"won": [1, 0, 0]}}
    assert TABLE.seat_facts(result, None) == {"won": [1, 0, 0], "board": [3, 3, 3]}
