"""挖坑 stakes against docs/rules/wakeng.md B6 / B11.7 written as a small oracle (not the engine's `stakes`):
b the final bid (烂挖 = 1); m = showFactor ^ (distinct players who showed, before or after bidding); per pair
s_i = b · m · d_digger · d_i with d_X = doubleFactor if X doubled, or with `wk.globalDoubling` every stake
b · m · doubleFactor ^ (players who doubled); the digger takes or pays the sum, each defender its own stake.

The existing vectors use showFactor 2 only; here both factors take the values at their boundaries (1: no
effect) and above, on the real engine, for a digger who wins and one who loses, checked as `fupan check` would.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wakeng_rules import (
    check,
    defenders_out,
    digger_out,
    finish_defenders_out,
    finish_digger_out,
    new_state,
    scores,
    to_play,
)

DEFAULTS = {"wk.showFactor": 2, "wk.doubleFactor": 2, "wk.globalDoubling": False}


def doc_scores(bid: int | None, shown: set[int], doubled: set[int], digger_wins: bool,
               options: dict[str, object]) -> list[int]:
    """B6 for the digger at seat 0 (defenders 1 and 2); `bid` None is 烂挖 (b = 1)."""
    o = {**DEFAULTS, **options}
    b = 1 if bid is None else bid
    m = o["wk.showFactor"] ** len(shown)  # each player who showed counts once (B11.7)
    if o["wk.globalDoubling"]:
        stakes = [b * m * o["wk.doubleFactor"] ** len(doubled)] * 2
    else:
        d = [o["wk.doubleFactor"] if seat in doubled else 1 for seat in range(3)]
        stakes = [b * m * d[0] * d[i] for i in (1, 2)]
    sign = 1 if digger_wins else -1
    return [sign * sum(stakes), -sign * stakes[0], -sign * stakes[1]]


def played(bid: int | None, pre: tuple[str, str, str], post: str, doubles: tuple[str, str, str], digger_wins: bool,
           options: dict[str, object]) -> list[int]:
    """The deal played on the real engine with seat 0 digging; its scores as `fupan check` finds them."""
    deck = digger_out(0) if digger_wins else defenders_out(0)
    state = new_state(deck["spec"], deck["kitty"], options=options)
    assert state.first == 0
    bids = (None, None, None) if bid is None else (3,) if bid == 3 else (bid, None, None)
    to_play(state, reveals=pre, bids=bids, post=(post,), doubles=doubles)
    (finish_digger_out if digger_wins else finish_defenders_out)(state)
    report = check(state)
    assert report["ok"] and report["result"]["scores"] == scores(state), report
    return scores(state)


def shown_by(pre: tuple[str, str, str], post: str) -> set[int]:
    shown = {seat for seat, choice in enumerate(pre) if choice == "reveal"}
    if post == "reveal" and 0 not in shown:  # the digger's post-bid 明牌, offered only if it had not shown
        shown.add(0)
    return shown


@pytest.mark.parametrize(("options", "pre", "post", "expected"), [
    ({"wk.showFactor": 1}, ("reveal", "reveal", "reveal"), "pass", [2, -1, -1]),  # 1³: showing changes nothing
    ({"wk.showFactor": 3}, ("pass", "reveal", "pass"), "pass", [6, -3, -3]),
    ({"wk.showFactor": 3}, ("pass", "reveal", "reveal"), "pass", [18, -9, -9]),
    ({"wk.showFactor": 3}, ("pass", "reveal", "reveal"), "reveal", [54, -27, -27]),  # the digger after bidding
    ({"wk.showFactor": 3}, ("reveal", "reveal", "reveal"), "pass", [54, -27, -27]),
    ({"wk.showFactor": 10}, ("pass", "pass", "pass"), "reveal", [20, -10, -10]),  # the top of the option's range
])
def test_the_show_factor_at_and_above_its_boundaries(options, pre, post, expected):
    """Bid 1, the digger wins; m = showFactor ^ (distinct players who showed)."""
    assert doc_scores(1, shown_by(pre, post), set(), True, options) == expected
    assert played(1, pre, post, ("pass",) * 3, True, options) == expected


@settings(max_examples=40, deadline=None, derandomize=True)
@given(bid=st.sampled_from([None, 1, 2, 3]), pre=st.tuples(*[st.sampled_from(["pass", "reveal"])] * 3),
       post=st.sampled_from(["pass", "reveal"]), doubles=st.tuples(*[st.sampled_from(["pass", "double"])] * 3),
       digger_wins=st.booleans(), show=st.integers(1, 4), double=st.integers(1, 4), global_=st.booleans())
def test_any_shows_doubles_and_factors_score_as_b6_says(bid, pre, post, doubles, digger_wins, show, double, global_):
    options = {"wk.showFactor": show, "wk.doubleFactor": double, "wk.globalDoubling": global_}
    doubled = {seat for seat, choice in enumerate(doubles) if choice == "double"}  # digger first, then 1, 2
    expected = doc_scores(bid, shown_by(pre, post), doubled, digger_wins, options)
    assert played(bid, pre, post, doubles, digger_wins, options) == expected
