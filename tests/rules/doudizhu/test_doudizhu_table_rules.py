"""The 斗地主 chip table as docs/rules/doudizhu.md §2.3.2, §2.5 and §2.6 state it, called directly (no service)."""

from __future__ import annotations

import pytest

from domain.games.doudizhu.table import DoudizhuTable

TABLE = DoudizhuTable()


def test_every_player_starts_with_10_chips_and_the_table_is_not_over():
    """§2.5: "each player starts with 10 chips"."""
    assert TABLE.start({}, 3) == {"chips": [10, 10, 10], "end": None}


@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_first_bidder_moves_one_seat_on_per_deal(first: int):
    """§2.3.2: deal 1 by lot (the match's `first`), then one seat on per deal."""
    standing = TABLE.start({}, 3)
    assert [TABLE.first_seat(standing, first, number, 3) for number in range(1, 6)] == [
        first, (first + 1) % 3, (first + 2) % 3, first, (first + 1) % 3]


def test_chips_move_by_each_deals_scores_until_someone_holds_20():
    """§2.5 `hold20`: the table ends after a deal in which someone holds ≥ 20 chips; balances may go below 0."""
    standing = TABLE.start({}, 3)
    standing = TABLE.after_deal(standing, {}, {"scores": [6, -2, -2]})
    assert standing == {"chips": [16, 8, 8], "end": None}
    standing = TABLE.after_deal(standing, {"ddz.tableTarget": "hold20"}, {"scores": [3, -1, -12]})
    assert standing == {"chips": [19, 7, -4], "end": None}
    standing = TABLE.after_deal(standing, {}, {"scores": [-1, 3, -1]})
    assert standing == {"chips": [18, 10, -5], "end": None}
    standing = TABLE.after_deal(standing, {}, {"scores": [2, 0, 0]})
    assert standing == {"chips": [20, 10, -5], "end": {"winner": 0, "by": "chips"}}


def test_under_net20_the_table_ends_at_20_chips_won_not_held():
    """§2.5 `net20`: someone is ≥ +20 net (30 chips from the 10 at the start); holding 20 is not enough."""
    options = {"ddz.tableTarget": "net20"}
    standing = TABLE.after_deal(TABLE.start(options, 3), options, {"scores": [-3, 19, -1]})
    assert standing == {"chips": [7, 29, 9], "end": None}
    standing = TABLE.after_deal(standing, options, {"scores": [-1, 1, -1]})
    assert standing == {"chips": [6, 30, 8], "end": {"winner": 1, "by": "chips"}}


def test_several_seats_at_20_the_most_chips_wins_and_an_equal_top_plays_on():
    """§2.5: several qualify → the most chips wins; an equal top count plays on (extra deals)."""
    standing = {"chips": [18, 17, 0], "end": None}
    assert TABLE.after_deal(standing, {}, {"scores": [3, 6, -3]})["end"] == {"winner": 1, "by": "chips"}
    assert TABLE.after_deal(standing, {}, {"scores": [4, 5, -3]})["end"] is None  # 22 and 22


def test_the_seat_facts_name_the_landlord_the_winners_and_the_chips_lost_to_fouls():
    """§2.6's tiebreaks read who won (`deals_won`: the landlord if the landlord won, else both farmers), who won as
    landlord (`landlord_wins`) and the chips lost to fouls (`penalties`, fewer ranks higher)."""
    won = {"scores": [-4, 12, -4], "landlord": 1, "landlord_won": True, "penalties": [0, 0, -2]}
    assert TABLE.seat_facts(won, None) == {"landlord": [0, 1, 0], "won": [0, 1, 0], "landlord_won": [0, 1, 0],
                                           "penalty": [0, 0, 2]}
    lost = {"scores": [2, -6, 2], "landlord": 1, "landlord_won": False, "penalties": [-1, 0, 0]}
    assert TABLE.seat_facts(lost, None) == {"landlord": [0, 1, 0], "won": [1, 0, 1], "landlord_won": [0, 0, 0],
                                            "penalty": [1, 0, 0]}


def test_a_redeal_has_no_landlord_and_nobody_won_only_its_penalties_count():
    """§2.7a.9: a redeal is a complete deal nobody won; its fouls' penalties still count."""
    redeal = {"redeal": True, "scores": [0, -3, 0], "penalties": [0, -3, 0]}
    assert TABLE.seat_facts(redeal, None) == {"landlord": [0, 0, 0], "won": [0, 0, 0], "landlord_won": [0, 0, 0],
                                              "penalty": [0, 3, 0]}
    assert TABLE.seat_facts({"redeal": True, "scores": [0, 0, 0]}, None)["penalty"] == [0, 0, 0]
