"""斗地主 scoring against an oracle written from docs/rules/doudizhu.md's own tables, not from the engine's result.

`doc_scores` reads a complete record's actions and prices the deal by §2.3 (who is landlord), §2.4 (M = rob ×
明牌 × bomb × spring, each factor from the document's table) and §2.5 (the payout). It shares no code with the
engine: it finds a bomb by looking at the cards (four of a rank, or the two jokers) and the winner by counting
cards. The engine must agree on scripted deals with up to four bombs and the rocket (hypothesis draws the bids,
明牌, bombs, springs and options), on the rulebook's literal vectors below, and on random legal deals.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.doudizhu.engine import DoudizhuEngine, reveal_deal_factor
from domain.kernel.cards import full_deck
from domain.kernel.engine import DealSetup
from domain.records.format import check_record
from fixtures.random_play.doudizhu import random_record

SEATS = 3
HAND, KITTY = 17, 3

# §2.4 明牌 table: the factor of each kind of reveal; the deal's factor is the largest, never a product.
REVEAL_FACTOR = {"start": 5, "after_kitty": 2}
DEAL_REVEAL_FACTOR = ((range(0, 7), 4), (range(7, 13), 3), (range(13, 18), 2))  # 发牌明牌 by cards received
# §2.5: (landlord's share, each farmer's share) of M under `ddz.payout`.
PAYOUT = {"literal31": (3, 1), "zeroSum21": (2, 1)}
DEFAULTS = {"ddz.payout": "literal31", "ddz.chipMultiplier": True, "ddz.bombSpringMultipliers": True}


def rank(card: str) -> str:
    return card if card in ("BJ", "LJ") else card[1:]


def is_bomb_or_rocket(cards: list[str]) -> bool:
    """§2.2: a bomb is four cards of one rank; the rocket is BJ + LJ (四带二 is six or eight cards: never)."""
    return sorted(cards) == ["BJ", "LJ"] or (len(cards) == 4 and len({rank(c) for c in cards}) == 1)


def reveal_factor(action: dict[str, Any]) -> int:
    if action["stage"] == "deal":
        return next(f for received, f in DEAL_REVEAL_FACTOR if action["received"] in received)
    return REVEAL_FACTOR[action["stage"]]


def doc_scores(record: dict[str, Any]) -> dict[str, Any]:
    """The deal's chips as docs/rules/doudizhu.md prices them: {"scores"} (and the factors, to read a failure).
    Needs a record without timeouts (a timeout's play is the engine's choice)."""
    options = {**DEFAULTS, **record["options"]}
    actions = record["actions"]
    assert not any(a["type"] == "timeout" for a in actions)
    penalties = [0] * SEATS
    for action in actions:
        if action["type"] == "foul":
            penalties[action["seat"]] -= action.get("penalty", 0)
    reveals = [a for a in actions if a["type"] == "reveal"]
    bids = [a for a in actions if a["type"] in ("call", "rob")]
    # §2.3: the last to 叫 or 抢 is landlord; nobody called → the first pre-bid 明牌 player, or a redeal.
    if bids:
        landlord = bids[-1]["seat"]
    elif reveals:
        landlord = reveals[0]["seat"]
    else:
        return {"scores": penalties, "redeal": True}
    plays = [a for a in actions if a["type"] == "play"]
    held = [HAND + (KITTY if s == landlord else 0) for s in range(SEATS)]
    played = Counter[int]()
    for play in plays:
        played[play["seat"]] += len(play["cards"])
    (winner,) = [s for s in range(SEATS) if played[s] == held[s]]
    plays_by = Counter(play["seat"] for play in plays)
    rob = 2 ** sum(1 for a in bids if a["type"] == "rob")
    reveal = max((reveal_factor(a) for a in reveals), default=1)
    bomb = spring = 1
    if options["ddz.bombSpringMultipliers"]:
        bomb = 2 ** sum(1 for play in plays if is_bomb_or_rocket(play["cards"]))
        farmers_silent = all(plays_by[s] == 0 for s in range(SEATS) if s != landlord)  # 春天 (§2.7a.7)
        landlord_led_once = plays_by[landlord] == 1  # 反春天
        if (winner == landlord and farmers_silent) or (winner != landlord and landlord_led_once):
            spring = 2
    total = rob * reveal * bomb * spring
    m = total if options["ddz.chipMultiplier"] else 1
    share, each = PAYOUT[options["ddz.payout"]]
    sign = 1 if winner == landlord else -1
    base = [sign * share * m if s == landlord else -sign * each * m for s in range(SEATS)]
    return {"scores": [b + p for b, p in zip(base, penalties, strict=True)], "rob": rob, "reveal": reveal,
            "bomb": bomb, "spring": spring, "total": total}


def engine_scores(record: dict[str, Any]) -> list[int]:
    """What `fupan check` finds the record comes to (the record states no result)."""
    report = check_record({k: v for k, v in record.items() if k != "result"})
    assert report["ok"], report
    return report["result"]["scores"]


# --- scripted deals: bids, 明牌, bombs and the rocket, springs ------------------------------------------------

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def value(card: str) -> int:
    """§2.1's order: 3 … A, 2, LJ, BJ."""
    return {"LJ": 13, "BJ": 14}[card] if card in ("LJ", "BJ") else RANKS.index(rank(card))


def bid_actions(first: int, caller: int | None, robbers: list[bool], counter: bool) -> list[dict[str, Any]]:
    """§2.3 from `first`: the seats before `caller` pass, `caller` calls, then each later seat robs or passes,
    then the caller's counter-rob if anyone robbed (None: everyone passes)."""
    order = [(first + k) % SEATS for k in range(SEATS)]
    if caller is None:
        return [{"seat": s, "type": "pass"} for s in order]
    at = order.index(caller)
    actions = [{"seat": s, "type": "pass"} for s in order[:at]] + [{"seat": caller, "type": "call"}]
    later = order[at + 1:]
    robbing = [k < len(robbers) and robbers[k] for k in range(len(later))]  # a seat not named passes
    actions += [{"seat": seat, "type": "rob" if robs else "pass"} for seat, robs in zip(later, robbing, strict=True)]
    if any(robbing):
        actions.append({"seat": caller, "type": "rob" if counter else "pass"})
    return actions


def scripted_deal(*, bombs: int, rocket: bool, landlord_wins: bool, winner_offset: int = 1, caller: int | None = 0,
                  robbers: tuple[bool, ...] = (), counter: bool = False, reveals: tuple[dict[str, Any], ...] = (),
                  after_kitty: bool = False, contest: bool = False, bomb_ranks: tuple[int, ...] = (),
                  options: dict[str, Any] | None = None, first: int = 0) -> dict[str, Any]:
    """A complete record in which one player W plays `bombs` bombs and the rocket (if `rocket`) and goes out.

    W is the landlord (`landlord_wins`) or the farmer `winner_offset` seats after it. The landlord's side
    leads first: a farmer W beats the landlord's opening single (with a bomb if it has one), then W leads
    everything — bombs, rocket, then its other cards as singles — and the others pass. `contest`: once, an
    opponent of W beats W's lowest single before W bombs back (no 春天 / 反春天 then).
    """
    reveals = tuple(reveals)
    if reveals:
        first = reveals[0]["seat"]  # the first pre-bid 明牌 player bids first (§2.3.2, §2.7a.2)
    bidding = bid_actions(first, caller, list(robbers), counter)
    called = [a["seat"] for a in bidding if a["type"] in ("call", "rob")]
    landlord = called[-1] if called else reveals[0]["seat"]
    winner = landlord if landlord_wins else (landlord + winner_offset) % SEATS
    size = HAND + (KITTY if winner == landlord else 0)
    ranks = list(bomb_ranks) or list(range(bombs))
    assert len(ranks) == bombs
    bomb_sets = [[suit + RANKS[r] for suit in "SHCD"] for r in ranks]
    big = [["LJ", "BJ"]] if rocket else []
    deck = [c for c in full_deck(1, True) if not any(c in group for group in bomb_sets + big)]
    # W's other cards: the lowest of what is left, so that an opponent always holds a single above them, and
    # never all four of a rank (W's singles are singles).
    rest = sorted(deck, key=value)
    filler: list[str] = []
    for card in rest:
        if len(filler) == size - 4 * bombs - 2 * len(big) - 1:
            break
        if sum(1 for c in filler if rank(c) == rank(card)) < 3 and card not in ("BJ", "LJ"):
            filler.append(card)
    filler.append(max((c for c in rest if c not in filler and c not in ("BJ", "LJ")), key=value))  # one high single
    held_by_winner = [c for group in bomb_sets + big for c in group] + filler
    assert len(held_by_winner) == size, "W holds too many bombs for its hand"
    others = [c for c in deck if c not in filler]
    random.Random(f"{bombs}{rocket}{landlord}{winner}").shuffle(others)
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    if winner == landlord:
        kitty = held_by_winner[-KITTY:]
        hands[winner] = held_by_winner[:-KITTY]
    else:
        kitty, others = others[:KITTY], others[KITTY:]
        hands[winner] = held_by_winner
    for seat in range(SEATS):
        if seat != winner:
            hands[seat], others = others[:HAND], others[HAND:]
    holding = [list(h) + (kitty if s == landlord else []) for s, h in enumerate(hands)]

    actions: list[dict[str, Any]] = list(reveals) + bidding
    if after_kitty and all(r["seat"] != landlord for r in reveals):  # a player reveals at most once
        actions.append({"seat": landlord, "type": "reveal", "stage": "after_kitty"})

    def put(seat: int, cards: list[str]) -> None:
        for card in cards:
            holding[seat].remove(card)
        actions.append({"seat": seat, "type": "play", "cards": cards})

    def round_from(leader: int, cards: list[str]) -> None:
        put(leader, cards)
        if holding[leader]:
            actions.extend({"seat": (leader + k) % SEATS, "type": "pass"} for k in (1, 2))

    strong = bomb_sets + big  # W's bombs and the rocket, in the order it plays them
    singles = sorted(filler, key=value)
    if winner != landlord:
        opening = min(holding[landlord], key=value)
        put(landlord, [opening])
        if winner_offset == 2:
            actions.append({"seat": (landlord + 1) % SEATS, "type": "pass"})
        if strong:
            beat = strong.pop(0)
        else:
            beat = [singles.pop()]  # W's highest single
            assert value(beat[0]) > value(opening)
        round_from(winner, beat)
    if contest and strong and singles:
        low = singles.pop(0)
        put(winner, [low])
        contender = (winner + 1) % SEATS
        answer = max(holding[contender], key=value)
        assert value(answer) > value(low)
        put(contender, [answer])
        if contender != (winner + 2) % SEATS:
            actions.append({"seat": (winner + 2) % SEATS, "type": "pass"})
        round_from(winner, strong.pop(0))
    for group in strong:
        round_from(winner, group)
    for card in singles:
        round_from(winner, [card])
    assert not holding[winner]
    return {"format": "fupan.deal/1", "game": "doudizhu", "options": dict(options or {}), "seats": ["甲", "乙", "丙"],
            "first": first, "hands": hands, "kitty": kitty, "context": {}, "actions": actions}


# --- the rulebook's vectors: several bombs and the rocket in one deal (§2.4, §2.7a.6) ---------------------------


@pytest.mark.parametrize(("bombs", "rocket", "m"), [
    (0, False, 1), (1, False, 2), (2, False, 4), (3, False, 8), (4, False, 16),
    (0, True, 2), (1, True, 4), (2, True, 8), (3, True, 16), (4, True, 32),
])
def test_every_bomb_and_the_rocket_double_a_landlords_win(bombs, rocket, m):
    """The landlord plays them all and goes out without a farmer playing: bomb factor 2^(bombs + rocket), 春天 ×2;
    literal31 pays the landlord 3·M and takes M from each farmer (§2.4, §2.5)."""
    record = scripted_deal(bombs=bombs, rocket=rocket, landlord_wins=True)
    spring = 2
    assert engine_scores(record) == [3 * m * spring, -m * spring, -m * spring] == doc_scores(record)["scores"]


@pytest.mark.parametrize(("bombs", "rocket", "m"), [(2, False, 4), (3, False, 8), (2, True, 8), (3, True, 16)])
def test_a_farmers_bombs_and_rocket_double_the_landlords_loss_too(bombs, rocket, m):
    """A farmer beats the landlord's opening single with a bomb and plays the rest: every bomb counts whoever plays
    it; 反春天 ×2 (the landlord made exactly one play); zeroSum21 pays ∓2·M / ±M."""
    record = scripted_deal(bombs=bombs, rocket=rocket, landlord_wins=False, options={"ddz.payout": "zeroSum21"})
    assert engine_scores(record) == [-2 * m * 2, m * 2, m * 2] == doc_scores(record)["scores"]


@pytest.mark.parametrize(("bombs", "rocket", "m"), [(2, True, 8), (4, False, 16), (4, True, 32)])
def test_several_bombs_with_robs_and_a_reveal_multiply_by_every_factor(bombs, rocket, m):
    """Seat 0 calls, seats 1 and 2 rob, seat 0 counter-robs (rob ×8); 明牌开始 by seat 1 (×5); a farmer's single
    answered once (no 春天): M = 8 × 5 × 2^(bombs + rocket)."""
    record = scripted_deal(bombs=bombs, rocket=rocket, landlord_wins=True, caller=1, robbers=(True, True),
                           counter=True, reveals=({"seat": 1, "type": "reveal", "stage": "start"},), contest=True)
    total = 8 * 5 * m
    assert engine_scores(record) == [-total, 3 * total, -total] == doc_scores(record)["scores"]


def test_bombs_do_not_multiply_with_the_bomb_and_spring_option_off():
    record = scripted_deal(bombs=4, rocket=True, landlord_wins=True, options={"ddz.bombSpringMultipliers": False})
    assert engine_scores(record) == [3, -1, -1] == doc_scores(record)["scores"]


# --- hypothesis: scripted deals drawn at random, and random legal deals ----------------------------------------

OPTIONS = st.fixed_dictionaries({
    "ddz.payout": st.sampled_from(["literal31", "zeroSum21"]),
    "ddz.chipMultiplier": st.booleans(),
    "ddz.bombSpringMultipliers": st.booleans(),
})


@st.composite
def reveals(draw: st.DrawFn) -> tuple[dict[str, Any], ...]:
    """Pre-bid 明牌 in a legal order: 明牌开始 first, then 发牌明牌 in non-decreasing `received` (§2.7a.1)."""
    seats = draw(st.lists(st.integers(0, 2), unique=True, max_size=2))
    out: list[dict[str, Any]] = []
    received = 0
    for seat in seats:
        if draw(st.booleans()) and all(a["stage"] == "start" for a in out):
            out.append({"seat": seat, "type": "reveal", "stage": "start"})
        else:
            received = draw(st.integers(received, 17))
            out.append({"seat": seat, "type": "reveal", "stage": "deal", "received": received})
    return tuple(out)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(bombs=st.integers(0, 4), rocket=st.booleans(), landlord_wins=st.booleans(),
       winner_offset=st.sampled_from([1, 2]), caller=st.sampled_from([0, 1, 2, None]),
       robbers=st.tuples(st.booleans(), st.booleans()),
       counter=st.booleans(), shown=reveals(), after_kitty=st.booleans(), contest=st.booleans(),
       bomb_ranks=st.permutations(range(13)), options=OPTIONS)
def test_scripted_deals_score_as_the_rules_tables_say(bombs, rocket, landlord_wins, winner_offset, caller, robbers,
                                                     counter, shown, after_kitty, contest, bomb_ranks, options):
    if caller is None and not shown:
        caller = 0  # all passing with nobody's 明牌 is a redeal: no landlord to score
    if not landlord_wins and 4 * bombs + 2 * rocket > HAND - 1:
        bombs -= 1  # a farmer's 17 cards hold at most 3 bombs and the rocket besides the card it wins a trick with
    record = scripted_deal(bombs=bombs, rocket=rocket, landlord_wins=landlord_wins, winner_offset=winner_offset,
                           caller=caller, robbers=robbers, counter=counter, reveals=shown, after_kitty=after_kitty,
                           contest=contest, bomb_ranks=tuple(bomb_ranks[:bombs]), options=options)
    expected = doc_scores(record)
    assert engine_scores(record) == expected["scores"], expected


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_random_legal_deals_score_as_the_rules_tables_say(seed, options):
    record = random_record(random.Random(seed), options, timeout_rate=0)
    expected = doc_scores(record)
    assert engine_scores(record) == expected["scores"], expected


def test_the_result_names_each_factor_of_the_multiplier():
    """The record's result lists each doubling and their product (§2.4): rob ×8 (call, two robs, a counter-rob),
    明牌开始 ×5, two bombs and the rocket ×8, no 春天 (a farmer played)."""
    record = scripted_deal(bombs=2, rocket=True, landlord_wins=True, caller=1, robbers=(True, True), counter=True,
                           reveals=({"seat": 1, "type": "reveal", "stage": "start"},), contest=True)
    engine = DoudizhuEngine()
    state = engine.new_deal(DealSetup("doudizhu", record["options"], record["seats"], record["first"], record["hands"],
                                      record["kitty"]))
    for action in record["actions"]:
        engine.apply(state, action)
    result = engine.result(state)
    assert result is not None and result["bombs"] == 3
    assert result["multipliers"] == {"rob": 8, "reveal": 5, "bomb": 8, "spring": 1, "total": 320}


@pytest.mark.parametrize("received", range(HAND + 1))
def test_a_deal_reveal_is_priced_by_the_cards_received(received: int) -> None:
    """§2.4's table at every count, its boundaries 6 | 7 and 12 | 13 included: 0–6 ×4, 7–12 ×3, 13–17 ×2."""
    expected = next(f for counts, f in DEAL_REVEAL_FACTOR if received in counts)
    assert reveal_deal_factor(received) == expected
