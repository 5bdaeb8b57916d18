"""Sets of disjoint tractors, as the follow and the trick's winner need them (docs/rules/shengji.md §3.7.2, §3.8,
§3.14a.4, `sj.preferShorterTractor`, "Engine additions"), on pair counts alone: value → pairs held of it, values
consecutive in the suit's order. The expected sets are worked out by hand in each comment."""

from __future__ import annotations

import pytest

from domain.games.shengji.cards import full_match_top, lowest_tractor_set, tractor_match

RUN_3_TO_7 = {3: 1, 4: 1, 5: 1, 6: 1, 7: 1}  # five consecutive pairs


def test_the_best_set_is_not_the_greedy_one():
    # §3.14a.4: lengths 3 and 2 against 2-3-4 and 6-7-8: the 3 at 8 (6-8) and the 2 at 3 (2-3): 5 matched.
    assert tractor_match({2: 1, 3: 1, 4: 1, 6: 1, 7: 1, 8: 1}, (3, 2))[0] == 5
    # Three tractors led, one 2-pair tractor held: 2 matched, the other two lengths left unmatched.
    assert tractor_match({2: 1, 3: 1}, (2, 2, 2))[0] == 2
    score, placements = tractor_match({2: 1, 3: 1, 5: 1, 6: 1, 8: 1, 9: 1}, (2, 2, 2))
    assert (score, sorted(placements)) == (6, [(3, 2), (6, 2), (9, 2)])


def test_with_prefer_shorter_tractor_shorter_tractors_count_their_pairs():
    # Lengths 4 and 2 against 3-4-5-6-7: a 3 for the 4 and a 2 beside it make 5; without the switch only a whole
    # 4 counts (4-7, nothing left for the 2): 4.
    assert tractor_match(RUN_3_TO_7, (4, 2), True)[0] == 5
    assert tractor_match(RUN_3_TO_7, (4, 2), False)[0] == 4
    # The switch reaches the second length too: 4 and 3 against 2-3 and 6-7: two 2-pair tractors, 4.
    assert tractor_match({2: 1, 3: 1, 6: 1, 7: 1}, (4, 3), True)[0] == 4
    assert tractor_match({2: 1, 3: 1, 6: 1, 7: 1}, (4, 3), False)[0] == 0


@pytest.mark.parametrize(("counts", "lengths", "shorter", "lowest"), [
    # Two 2s against 2-3, 5-6, 8-9: three best sets; the lowest is 2-3 and 5-6.
    ({2: 1, 3: 1, 5: 1, 6: 1, 8: 1, 9: 1}, (2, 2), False, [(3, 2), (6, 2)]),
    # 4 and 2 against 3-7 with the switch: 3-5 with 6-7, or 5-7 with 3-4; the lower tops are 4 and 7.
    (RUN_3_TO_7, (4, 2), True, [(4, 2), (7, 3)]),
    # A 3 against 2-3-4-5-6 without the switch: 2-4 is the lowest of three.
    ({2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, (3,), False, [(4, 3)]),
    # 4 and 3 against 2-3-4-5 and 7-8 without the switch: only the 4 (2-5) counts whole; two 2-pair tractors
    # (2-3 and 7-8) match as many pairs but are no tractor of the led lengths.
    ({2: 1, 3: 1, 4: 1, 5: 1, 7: 1, 8: 1}, (4, 3), False, [(5, 4)]),
    # Two pairs of one value (the 副级 pairs share a value): 4-5 twice, both placed.
    ({4: 2, 5: 2}, (2, 2), False, [(5, 2), (5, 2)]),
])
def test_a_timeout_plays_the_lowest_of_the_best_sets(counts, lengths, shorter, lowest):
    # "Engine additions": a timeout plays the lowest legal cards; the set is among the best (§3.14a.4).
    assert sorted(lowest_tractor_set(counts, lengths, shorter)) == lowest


def test_a_matching_play_is_ranked_by_the_highest_top_its_longest_tractor_can_take():
    # §3.8: the principal part is the best tractor of the lead's longest length. 5-6-7 against a 2: top 7.
    assert full_match_top({5: 1, 6: 1, 7: 1}, (2,)) == 7
    # With a second tractor to hold: 2-3 and 5-6-7-8 against 2 and 2: the 2 at 8, the other at 3 or 6: 8.
    assert full_match_top({2: 1, 3: 1, 5: 1, 6: 1, 7: 1, 8: 1}, (2, 2)) == 8
    # 4-5-6 against 2 and 2: no two disjoint tractors — not a matching play.
    assert full_match_top({4: 1, 5: 1, 6: 1}, (2, 2)) is None
    assert full_match_top({5: 1, 6: 1}, (2, 2)) is None
    # 3-4-5 and 7-8 against 3 and 2: the 3 can only be 3-5 (top 5), and the 2 then fits at 8.
    assert full_match_top({3: 1, 4: 1, 5: 1, 7: 1, 8: 1}, (3, 2)) == 5
    # 4-5 twice (equal 副级 values) and 7-8 against 2, 2, 2: the first 2 at 8, the others 4-5 twice: 8.
    assert full_match_top({4: 2, 5: 2, 7: 1, 8: 1}, (2, 2, 2)) == 8
