"""Who deals each deal of a 升级 match (docs/record-format.md `first`; docs/rules/shengji.md §3.11), the match's
table called directly (no service)."""

from __future__ import annotations

from domain.games.shengji.table import ShengjiTable, next_context

TABLE = ShengjiTable()


def test_the_first_deal_starts_from_the_opened_seat_and_every_later_deal_from_its_dealer():
    """§3.11: the first deal is a 抢庄 deal at level 2 for both, started from the seat the match was opened with;
    then `first` is the dealer the last deal named."""
    standing = TABLE.start({}, 4)
    assert standing["next"] == {"levels": [2, 2], "dealer": None, "deal_number": 1}
    assert [TABLE.first_seat(standing, first, 1, 4) for first in range(4)] == [0, 1, 2, 3]
    later = {**standing, "next": next_context(standing["next"], {"new_levels": [3, 2], "next_dealer": 1})}
    assert later["next"] == {"levels": [3, 2], "dealer": 1, "deal_number": 2}
    assert [TABLE.first_seat(later, first, 2, 4) for first in range(4)] == [1, 1, 1, 1]
    redealt = next_context(later["next"], {"redeal": True})
    assert redealt == later["next"]  # a redeal is dealt again with the same context


def test_a_context_without_a_deal_number_is_deal_1():
    """docs/record-format.md `context`: the deal number defaults to 1, so the deal after it is deal 2."""
    after = next_context({"levels": [2, 2], "dealer": None}, {"new_levels": [2, 3], "next_dealer": 2})
    assert after == {"levels": [2, 3], "dealer": 2, "deal_number": 2}
