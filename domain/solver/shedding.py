"""Position adapters for the shedding games: 斗地主, 三打一 and 挖坑 (ranks only), 大怪路子 (suits and wildcards).

A position is canonical: in 斗地主, 三打一 and 挖坑 suits never matter to what a play is or beats
(docs/rules/doudizhu.md §2.1, sandayi.md §1.2, wakeng.md B2), so a hand is a tuple of counts per rank and the
same ranks in other suits are one play; 大怪路子's flushes need suits (daguai.md A3), so there a hand is the
sorted tuple of its card codes. The last play is kept only while it is to be answered.

Legality is the rules engine's: a candidate play is every sub-multiset of the hand, and it is a play exactly
when the game's own patterns module reads it (`parses` / `parse`) and, when following, its own `beats` /
`answers` says it beats the play on the table; the turn order mirrors the engines' (shedding.pass_turn and
take_play; 大怪路子's `_after_turn`). tests/services/test_analysis.py checks every generated move and every successor
against the engine itself on positions of random legal deals.

Only plays and passes are moves. A timeout (the engines turn it into a pass or a forced lowest card), a
referee's foul, a 明牌 and a 三打一 declaration are not plays and are not listed (docs/analysis.md).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from domain.games.daguai import engine as daguai_engine
from domain.games.daguai import patterns as daguai
from domain.games.doudizhu import patterns as doudizhu
from domain.games.sandayi import patterns as sandayi
from domain.games.shedding import LITTLE, RANK_VALUE, card_value
from domain.games.wakeng import patterns as wakeng
from domain.kernel.engine import team_of
from domain.solver.search import CHECK_EVERY, Budget

Counts = tuple[int, ...]
ACE = RANK_VALUE["A"]  # the highest rank a sequence may hold (doudizhu.md §2.2)
BITS = 4  # a rank's count in a packed hand: up to 8 (三打一's two decks) fits in 4 bits
MASK = (1 << BITS) - 1
_LOW_BITS = sum(1 << (BITS * i) for i in range(16))  # the lowest bit of each rank's count


def pack(counts: Counts) -> int:
    """A hand of counts per rank as one integer, 4 bits a rank: a play leaves the hand by plain subtraction
    (no rank goes below 0, so nothing borrows) and an empty hand is 0."""
    return sum(c << (BITS * i) for i, c in enumerate(counts))


_HIGH_BITS = _LOW_BITS << (BITS - 1)  # the highest bit of each rank's count


def _within(part: int, hand: int) -> bool:
    """Whether the packed `part` is a sub-multiset of the packed `hand` (no rank's count above the hand's): the
    subtraction hand - part borrows out of a rank's 4 bits exactly when that rank's count is larger (the
    borrow-out bit of a subtractor, for all ranks at once); the lowest such rank borrows, so one check suffices."""
    return not ((~hand & part) | (~(hand ^ part) & (hand - part))) & _HIGH_BITS


def _ranks_in(packed: int) -> int:
    """The number of ranks a packed hand holds."""
    return bin((packed | packed >> 1 | packed >> 2 | packed >> 3) & _LOW_BITS).count("1")


def unpack(packed: int, ranks: int) -> Counts:
    return tuple((packed >> (BITS * i)) & MASK for i in range(ranks))


def _size(packed: int) -> int:
    """The number of cards in a packed hand: the sum of its 4-bit counts."""
    total = 0
    while packed:
        total += packed & MASK
        packed >>= BITS
    return total


class RankPosition(NamedTuple):
    """A position of 斗地主, 三打一 or 挖坑: hands as counts per rank, the seat to act, the play to answer (its
    seat and readings; None when leading), the bombs each seat may still play (三打一; None = any) and the
    seat that went out (the end)."""

    hands: tuple[int, ...]  # packed counts per rank (`pack`)
    to_act: int
    last_seat: int | None
    last: tuple[Any, ...] | None
    bombs_left: tuple[int | None, ...]
    winner: int | None = None


@dataclass(frozen=True)
class RankRules:
    """One ranks-only shedding game as the search sees it, every rule taken from its patterns module."""

    game: str
    values: tuple[int, ...]  # the rank values, in count-index order
    value_of: Callable[[str], int]
    readings: Callable[[Counts], tuple[Any, ...]]  # () when the cards are no pattern
    answers: Callable[[tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]]  # () when they do not beat
    is_bomb: Callable[[tuple[Any, ...]], bool]


def _as_dict(values: tuple[int, ...], counts: Counts) -> dict[int, int]:
    return {values[i]: c for i, c in enumerate(counts) if c}


def _cards_for(values: tuple[int, ...], names: dict[int, str], counts: Counts) -> list[str]:
    """Representative card codes of a count vector (suits never matter to these patterns)."""
    return [names[values[i]] for i, c in enumerate(counts) for _ in range(c)]


def doudizhu_rules(options: dict[str, Any]) -> RankRules:
    values = tuple(range(3, 18))

    def readings(counts: Counts) -> tuple[Any, ...]:
        return tuple(sorted(set(doudizhu.parses_of_counts(_as_dict(values, counts), sum(counts)))))

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        # The readings that beat some reading of the last play; the round goes on from them (§2.2).
        return tuple(doudizhu.answers(list(play), list(last)))

    return RankRules("doudizhu", values, card_value, readings, answers,
                     lambda found: doudizhu.is_bomb(doudizhu.lead_reading(list(found))))


_SHEDDING_NAMES = {v: ("S" + name if v < LITTLE else name) for name, v in RANK_VALUE.items()}


def sandayi_rules(options: dict[str, Any]) -> RankRules:
    values = tuple(range(3, 18))
    compare = options["sdy.fullHouseCompare"]

    def readings(counts: Counts) -> tuple[Any, ...]:
        found = sandayi.parse(_cards_for(values, _SHEDDING_NAMES, counts), _as_dict(values, counts))
        return () if found is None else (found,)

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        return play if sandayi.beats(play[0], last[0], compare) else ()

    return RankRules("sandayi", values, card_value, readings, answers, lambda found: sandayi.is_bomb(found[0]))


_WAKENG_NAMES = {v: "S" + name for name, v in wakeng.RANK_VALUE.items()}


def wakeng_rules(options: dict[str, Any]) -> RankRules:
    values = tuple(sorted(wakeng.RANK_VALUE.values()))
    quad_is_bomb = options["wk.quadIsBomb"]

    def readings(counts: Counts) -> tuple[Any, ...]:
        found = wakeng.parse(_cards_for(values, _WAKENG_NAMES, counts))
        return () if found is None else (found,)

    def answers(play: tuple[Any, ...], last: tuple[Any, ...]) -> tuple[Any, ...]:
        return play if wakeng.beats(play[0], last[0], quad_is_bomb) else ()

    return RankRules("wakeng", values, wakeng.card_value, readings, answers,
                     lambda found: quad_is_bomb and found[0].kind == "quad")


def submultisets(hand: Counts) -> list[Counts]:
    """Every non-empty sub-multiset of a hand of counts."""
    return [c for c in itertools.product(*(range(n + 1) for n in hand)) if any(c)]


def packed_submultisets(hand: int, ranks: int) -> list[int]:
    """Every non-empty sub-multiset of a packed hand, packed: the sums of one choice per rank."""
    found = [0]
    for i, count in enumerate(unpack(hand, ranks)):
        if count:
            steps = [c << (BITS * i) for c in range(count + 1)]
            found = [base + step for base in found for step in steps]
    return found[1:]


_CACHE_LIMIT = 400_000  # entries per shared table before it is emptied (memory stays bounded)
_REORDERED_FROM = 7  # cards in a hand from which the search tries its plays in its own order (`_node_of`)
_SOURCES = 8  # hands a query reads leads off (`RankGame._leads`): its root hands, and a few in reserve


class _Shared:
    """What every query of one game's rules shares, whoever's side it asks about: the readings of each packed
    play, its answers to each play on the table, each hand's leads, and what RankGame derives from them
    (each hand's plays and moves against each play on the table, its static-win splits, its transposition key
    over the ranks held). Rules are pure functions of the cards, so what one query learnt stays true for the
    next."""

    def __init__(self) -> None:
        self.readings: dict[int, tuple[tuple[Any, ...], bool] | None] = {}
        self.answers: dict[tuple[int, tuple[Any, ...]], tuple[tuple[Any, ...], bool] | None] = {}
        self.leads: dict[int, list[tuple[int, tuple[Any, ...], bool]]] = {}
        self.plays: dict[tuple[int, Any, bool], list[tuple[int, tuple[Any, ...], bool]]] = {}
        self.play_readings: dict[tuple[int, Any, bool], dict[int, tuple[tuple[Any, ...], bool]]] = {}
        self.moves: dict[tuple[int, Any, bool, bool], list[int | None]] = {}
        self.nodes: dict[tuple[int, Any, int | None, bool], tuple[list[tuple[int | None, Any, bool]], bool,
                                                                  list[tuple[Any, ...]]]] = {}
        self.splits: dict[tuple[int, Any, int | None], tuple[bool, list[tuple[Any, ...]]]] = {}
        self.compressed: dict[tuple[int, int], int] = {}
        self.plans: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.card_ones: dict[str, int] = {}
        self.lead_bombs: dict[int, dict[int, bool]] = {}
        self.held_hands: dict[tuple[int, ...], tuple[int, ...] | None] = {}

    def bound(self) -> None:
        """Empty every table once one is full (together: `play_readings` are made of `plays`)."""
        tables = list(vars(self).values())
        if any(len(table) > _CACHE_LIMIT for table in tables):
            for table in tables:
                table.clear()


_SHARED: dict[tuple[str, tuple[Any, ...]], _Shared] = {}
_new = tuple.__new__  # a RankPosition made without NamedTuple's own constructor (a call less per child)


def forget_shared() -> None:
    """Empty the shared tables (the benchmark's cold runs)."""
    _SHARED.clear()


@functools.cache
def _rank_bits(values: tuple[int, ...]) -> tuple[int, int]:
    """The lowest bit of each rank's count for the ranks above A (2, jokers) and for the ranks 3..A."""
    return (sum(1 << (BITS * i) for i, v in enumerate(values) if v > ACE),
            sum(1 << (BITS * i) for i, v in enumerate(values) if v <= ACE))


class RankGame:
    """The search's view of a ranks-only shedding game, from the maximising team's side.

    `teams[seat]` is the side of each seat (斗地主: the landlord alone against the two farmers); the value is 1
    when the maximising team's seat goes out first, else 0."""

    bounds = (0, 1)

    def __init__(self, rules: RankRules, teams: Sequence[int], max_team: int, options_key: tuple[Any, ...] = ()):
        self.rules, self.teams, self.max_team = rules, tuple(teams), max_team
        self.seats = len(teams)
        self.ranks = len(rules.values)
        shared = _SHARED.get((rules.game, options_key))
        if shared is None:
            shared = _SHARED[(rules.game, options_key)] = _Shared()
        shared.bound()
        self._shared = shared
        self._plays, self._readings, self._split_table = shared.plays, shared.play_readings, shared.splits
        self._lead_lists = shared.leads
        self._sources: list[int] = []  # the hands `_leads` reads the leads of smaller hands off
        # The transposition key over the ranks held (`key`): 斗地主 only, its patterns being the ones read there.
        self._sequences_only_of_counts = rules.game == "doudizhu"
        self._always_kept, self._plain_bits = _rank_bits(rules.values)
        self._compressed, self._held_hands, self._moves = shared.compressed, shared.held_hands, shared.moves
        self._plans, self._nodes, self._lead_bombs = shared.plans, shared.nodes, shared.lead_bombs
        # Each seat's opponents (the seats of the other side), for the static wins.
        self._opponents = tuple(tuple(s for s in range(self.seats) if self.teams[s] != self.teams[seat])
                                for seat in range(self.seats))

    def key(self, pos: RankPosition) -> Any:
        """The position for the transposition table. In 斗地主, once no hand can make a sequence (单顺, 双顺,
        三顺, 飞机) any more, only the order of the ranks still held matters (every other pattern is counts of a
        rank, compared by rank: doudizhu.md §2.2), so at a lead the ranks nobody holds are left out and two
        positions with the same holdings in the same order share an entry (the equivalent cards of 残局
        analysis). Only leads: while a play is to be answered its rank would need placing among them too, which
        cost more than it saved."""
        if not self._sequences_only_of_counts or pos.last is not None:
            return pos
        hands = self._held_hands.get(pos.hands, False)
        if hands is False:
            hands = self._held_hands[pos.hands] = self._compress_hands(pos.hands)
        if hands is None:
            return pos
        return ("ranks held", hands, pos.to_act, pos.bombs_left)

    def _compress_hands(self, packed_hands: tuple[int, ...]) -> tuple[int, ...] | None:
        """The hands over the ranks held (None when one could still make a sequence), after the number of ranks
        3..A held: without it a hand's 2 and jokers could read as the top ranks 3..A of another position (and
        only two jokers in one hand make the rocket)."""
        held = self._always_kept
        for hand in packed_hands:
            held |= (hand | hand >> 1 | hand >> 2 | hand >> 3) & _LOW_BITS
        hands = [bin(held & self._plain_bits).count("1")]
        table = self._compressed
        for hand in packed_hands:
            found = table.get((hand, held))
            if found is None:
                found = table[(hand, held)] = self._compress(hand, held)
            if found < 0:
                return None
            hands.append(found)
        return tuple(hands)

    def _compress(self, hand: int, held: int) -> int:
        """`hand` over the ranks someone holds (`held`: a bit at each such rank's count; 2 and the jokers always
        kept apart: they make no sequence, and only both jokers make the rocket), packed; -1 when it could still
        make a sequence among them (单顺 5+, 双顺 3+ pairs, 三顺 / 飞机 2+ trios), so the ranks' places matter."""
        plan = self._plans.get(held)
        if plan is None:
            plan = self._plans[held] = self._plan(held)
        plain, top = plan
        out, slot = 0, 0
        singles = pairs = trios = 0  # the lengths of the runs of held ranks 3..A with 1+, 2+, 3+ cards
        for shift in plain:
            count = (hand >> shift) & MASK
            if count:
                out |= count << slot
                singles += 1
                if count >= 2:
                    pairs += 1
                    trios = trios + 1 if count >= 3 else 0
                    if pairs >= 3 or trios >= 2:
                        return -1
                else:
                    pairs = trios = 0
                if singles >= 5:
                    return -1
            else:
                singles = pairs = trios = 0
            slot += BITS
        for shift in top:
            out |= ((hand >> shift) & MASK) << slot
            slot += BITS
        return out

    def _plan(self, held: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The bit offsets of the held ranks 3..A and of the ranks above them kept (`_compress`), in rank order."""
        shifts = [BITS * i for i in range(self.ranks) if held >> (BITS * i) & 1]
        plain = tuple(shift for shift in shifts if self.rules.values[shift // BITS] <= ACE)
        return plain, tuple(shift for shift in shifts if self.rules.values[shift // BITS] > ACE)

    def terminal(self, pos: RankPosition) -> int | None:
        if pos.winner is None:
            return None
        return int(self.teams[pos.winner] == self.max_team)

    def maximising(self, pos: RankPosition) -> bool:
        return self.teams[pos.to_act] == self.max_team

    def _lead(self, play: int) -> tuple[tuple[Any, ...], bool] | None:
        """The readings of a packed play and whether it is a bomb; None when it is no pattern."""
        table = self._shared.readings
        if play in table:
            return table[play]
        rules = self.rules
        readings = rules.readings(unpack(play, self.ranks))
        found = (readings, rules.is_bomb(readings)) if readings else None
        table[play] = found
        return found

    def _answer(self, play: int, last: tuple[Any, ...]) -> tuple[tuple[Any, ...], bool] | None:
        """The readings of a packed play that beat `last` and whether they make a bomb; None when it does not."""
        table = self._shared.answers
        key = (play, last)
        if key in table:
            return table[key]
        lead = self._lead(play)
        found = None
        if lead is not None:
            readings = self.rules.answers(lead[0], last)
            if readings:
                found = (readings, self.rules.is_bomb(readings))
        table[key] = found
        return found

    def plays(self, hand: int, last: tuple[Any, ...] | None, bombs: bool, budget: Budget
              ) -> list[tuple[int, tuple[Any, ...], bool]]:
        """(cards, readings after the play, is a bomb) of every legal play of `hand`, best-first: the whole hand,
        then the most cards, bombs last. Cached: many positions share a hand and a play to answer. An answer is a
        lead of the hand that beats `last` (`_answer`), so answers are read off the hand's leads."""
        cache_key = (hand, last, bombs)
        found = self._plays.get(cache_key)
        if found is not None:
            return found
        leads = self._leads(hand, budget)
        if last is None:
            found = leads if bombs else [p for p in leads if not p[2]]
        else:
            answer = self._answer
            found, reordered = [], False
            for play, _, bomb in leads:
                entry = answer(play, last)
                if entry is None or (entry[1] and not bombs):
                    continue
                found.append((play, entry[0], entry[1]))
                reordered |= entry[1] != bomb
            if reordered:  # a play that is a bomb only in some readings: sorted again, as its answer reads
                found.sort(key=self._order_of(hand))
        self._plays[cache_key] = found
        return found

    def add_sources(self, hands: Sequence[int]) -> None:
        """Read the leads of the hands inside these (a query's root hands) off theirs (`_leads`)."""
        for hand in hands:
            if hand and hand not in self._sources and len(self._sources) < _SOURCES:
                self._sources.append(hand)

    def _order_of(self, hand: int) -> Callable[[tuple[int, tuple[Any, ...], bool]], tuple[bool, bool, int]]:
        """The best-first order of `hand`'s plays: the whole hand, then non-bombs before bombs, more cards first
        (ties in the order of `packed_submultisets`, which a stable sort keeps)."""
        return lambda p: (p[0] != hand, p[2], -_size(p[0]))

    def _leads(self, hand: int, budget: Budget) -> list[tuple[int, tuple[Any, ...], bool]]:
        """Every lead of `hand`, bombs included, best-first (`_order_of`). A hand of the search is a sub-multiset
        of a hand it started from (hands only lose cards), and its leads are exactly those of the larger hand that
        it holds: so they are read off a larger hand's list (`_sources`: the query's root hands, or the first
        hands seen; checked to hold this one) instead of parsing every sub-multiset again, in the same order (a
        sub-list of a list sorted best-first is sorted, but for its own whole hand, moved to the front)."""
        found = self._lead_lists.get(hand)
        if found is not None:
            return found
        source = next((held for held in self._sources if _within(hand, held)), None)
        if source is None or source == hand:
            subsets = packed_submultisets(hand, self.ranks)
            budget.tick(1 + len(subsets) // 64)
            lead = self._lead
            found = [(play, entry[0], entry[1]) for play in subsets if (entry := lead(play)) is not None]
            found.sort(key=self._order_of(hand))
            if source is None:
                self.add_sources((hand,))
        else:
            larger = self._leads(source, budget)
            budget.tick(1 + len(larger) // 64)
            found = [entry for entry in larger if _within(entry[0], hand)]
            whole = next((i for i, entry in enumerate(found) if entry[0] == hand), None)
            if whole:
                found.insert(0, found.pop(whole))
        self._lead_lists[hand] = found
        return found

    def moves(self, pos: RankPosition, budget: Budget) -> list[int | None]:
        seat = pos.to_act
        bombs = pos.bombs_left[seat] != 0
        last = pos.last
        partner = last is not None and self.teams[pos.last_seat] == self.teams[seat]  # type: ignore[index]
        cache_key = (pos.hands[seat], last, bombs, partner)
        found = self._moves.get(cache_key)
        if found is not None:
            return found
        plays: list[int | None] = [p[0] for p in self.plays(pos.hands[seat], last, bombs, budget)]
        # Answering a partner, passing first is usually right; answering an opponent, playing is.
        found = plays if last is None else [None, *plays] if partner else [*plays, None]
        self._moves[cache_key] = found
        return found

    def child(self, pos: RankPosition, move: int | None) -> RankPosition:
        seat = pos.to_act
        following = (seat + 1) % self.seats
        if move is None:  # 不出: after every other seat passed, the last player leads (shedding.pass_turn)
            if following == pos.last_seat:
                return RankPosition(pos.hands, following, None, None, pos.bombs_left)
            return RankPosition(pos.hands, following, pos.last_seat, pos.last, pos.bombs_left)
        hands = list(pos.hands)
        hand = hands[seat] = hands[seat] - move
        bombs = pos.bombs_left[seat] != 0
        cache_key = (pos.hands[seat], pos.last, bombs)
        known = self._readings.get(cache_key)
        if known is None:  # made when first asked: the search's own steps carry their readings (`_node_of`)
            plays = self.plays(pos.hands[seat], pos.last, bombs, _UNLIMITED)
            known = self._readings[cache_key] = {play: (readings, bomb) for play, readings, bomb in plays}
        readings, bomb = known[move]
        bombs_left = pos.bombs_left
        if bomb and bombs_left[seat] is not None:
            bombs_left = tuple(b - 1 if s == seat and b is not None else b for s, b in enumerate(bombs_left))
        if not hand:  # the first player out ends the deal (shedding.take_play)
            return RankPosition(tuple(hands), seat, None, None, bombs_left, winner=seat)
        return RankPosition(tuple(hands), following, seat, readings, bombs_left)

    def decide(self, pos: RankPosition, decided: dict[Any, int], budget: Budget) -> int:
        """`search.Solver._decide` for these games — the AND/OR search of a win/lose game — with this adapter's
        moves, children and key worked in: the same nodes in the same order, the same table entries and values,
        only far fewer calls per node (most of the time of a small query). Checked like the generic search,
        against the exhaustive minimax (tests/services/test_analysis.py)."""
        teams, max_team, nodes, node_limit = self.teams, self.max_team, self._nodes, budget.node_limit
        while True:
            winner = pos[5]
            if winner is not None:
                return int(teams[winner] == max_team)
            budget.nodes += 1  # Budget.tick, written out
            if budget.nodes > node_limit or not budget.nodes % CHECK_EVERY:
                budget.check()
            seat, last = pos[1], pos[3]
            found = nodes.get((pos[0][seat], last, pos[4][seat], last is not None and teams[pos[2]] == teams[seat]))
            steps, whole, splits = self._node_of(pos, budget) if found is None else found
            if len(steps) != 1:
                break
            # One move only (a seat that cannot answer must pass): walked on without a table entry.
            pos = self._after(pos, steps[0])
        key: Any = pos
        if pos[3] is None and self._sequences_only_of_counts:
            held = self._held_hands.get(pos[0], False)
            if held is False:
                held = self._held_hands[pos[0]] = self._compress_hands(pos[0])
            if held is not None:
                key = ("ranks held", held, pos[1], pos[4])
        known = decided.get(key)
        if known is not None:
            return known
        wins = int(teams[pos[1]] == max_team)  # the value that ends the node: a win for the side to move
        if whole or splits and self._unanswered(pos, splits, budget):  # `proven`, its split already at hand
            decided[key] = wins
            return wins
        value = 1 - wins
        after, decide = self._after, self.decide
        for step in steps:
            if decide(after(pos, step), decided, budget) == wins:
                value = wins
                break
        decided[key] = value
        return value

    def _node_of(self, pos: RankPosition, budget: Budget
                 ) -> tuple[list[tuple[int | None, Any, bool]], bool, list[tuple[Any, ...]]]:
        """The moves of `pos` (as `moves` lists them) with what each puts on the table — (cards, readings, is a
        bomb), (None, None, False) for a pass — and the seat's static-win split (`_splits`), made once per hand,
        play to answer, bombs allowed and partner's play or not."""
        seat = pos[1]
        last = pos[3]
        allowance = pos[4][seat]
        partner = last is not None and self.teams[pos[2]] == self.teams[seat]
        cache_key = (pos[0][seat], last, allowance, partner)
        found = self._nodes.get(cache_key)
        if found is None:
            hand = pos[0][seat]
            plays: list[tuple[int | None, Any, bool]] = list(self.plays(hand, last, allowance != 0, budget))
            passing = (None, None, False)
            if _size(hand) >= _REORDERED_FROM:
                # The search's order (the answer still lists `moves`' order): among plays of as many cards, the
                # one that leaves the fewest ranks in the hand first — a hand of fewer ranks goes out in fewer
                # plays. Any order gives the same values; this one visits a third fewer nodes on the heaviest
                # ≤11-card 斗地主 positions (docs/PERFORMANCE.md), and on small hands its sort costs more than it saves.
                plays.sort(key=lambda p: (p[0] != hand, p[2], -_size(p[0]), _ranks_in(hand - p[0])))
            steps = plays if last is None else [passing, *plays] if partner else [*plays, passing]
            found = self._nodes[cache_key] = (steps, *self._splits(hand, last, allowance, budget))
        return found

    def _after(self, pos: RankPosition, step: tuple[int | None, Any, bool]) -> RankPosition:
        """`child` of a step of `_node_of` (its readings at hand, not looked up)."""
        hands, seat, last_seat, last, bombs_left, _ = pos
        move, readings, bomb = step
        following = (seat + 1) % self.seats
        if move is None:  # 不出: after every other seat passed, the last player leads (shedding.pass_turn)
            if following == last_seat:
                return _new(RankPosition, (hands, following, None, None, bombs_left, None))
            return _new(RankPosition, (hands, following, last_seat, last, bombs_left, None))
        hand = hands[seat] - move
        hands = (*hands[:seat], hand, *hands[seat + 1:])
        if bomb and bombs_left[seat] is not None:
            bombs_left = tuple(b - 1 if s == seat and b is not None else b for s, b in enumerate(bombs_left))
        if not hand:  # the first player out ends the deal (shedding.take_play)
            return _new(RankPosition, (hands, seat, None, None, bombs_left, seat))
        return _new(RankPosition, (hands, following, seat, readings, bombs_left, None))

    def proven(self, pos: RankPosition, budget: Budget) -> int | None:
        """The value of `pos` when a static look proves the side to act wins (None: search it): the seat to act
        goes out with its next play, or with two — a first that no opponent can answer (every opponent must
        pass, its partners choose to, and it leads again: shedding.pass_turn) and the rest of its hand in one
        lead. The opponents' hands do not change meanwhile, so their answers are read from the same play lists
        the search uses (the 一手出完 / 压不住 checks of the published 残局 solvers, e.g.
        haomeiwen.com/subject/yruqtrtx.html). Only wins are claimed, never a loss; tests/services/test_analysis.py
        checks
        the claims against the exhaustive minimax."""
        seat = pos.to_act
        hand, allowance = pos.hands[seat], pos.bombs_left[seat]
        whole, splits = self._splits(hand, pos.last, allowance, budget)
        if not whole and not (splits and self._unanswered(pos, splits, budget)):
            return None
        return int(self.teams[seat] == self.max_team)

    def _unanswered(self, pos: RankPosition, splits: list[tuple[Any, ...]], budget: Budget) -> bool:
        """Whether one of the seat to act's `splits` (the readings of a first play after which the rest goes out
        in one lead) is a play no opponent can answer (`proven`)."""
        hands, bombs_left, known = pos[0], pos[4], self._plays
        opponents = [(hands[s], bombs_left[s] != 0) for s in self._opponents[pos[1]]]
        for readings in splits:
            for other, bombs in opponents:
                answers = known.get((other, readings, bombs))  # `plays`, its table read here (a hot path)
                if answers is None:
                    answers = self.plays(other, readings, bombs, budget)
                if answers:
                    break
            else:
                return True
        return False

    def _splits(self, hand: int, last: tuple[Any, ...] | None, allowance: int | None, budget: Budget
                ) -> tuple[bool, list[tuple[Any, ...]]]:
        """Whether `hand` goes out in its next play (leading, or answering `last`), and the readings of each
        next play that leaves a hand which goes out in one lead (bombs only while the seat may still bomb).
        Cached: it depends on the seat's own cards only."""
        key = (hand, last, allowance)
        found = self._split_table.get(key)
        if found is not None:
            return found
        splits = []
        whole = False
        # What is left after a play is a lead of the hand exactly when it is a pattern (its leads are every
        # pattern it holds), so it is looked up among them: no other sub-multiset is parsed.
        leads = self._lead_bombs.get(hand)
        if leads is None:
            leads = self._lead_bombs[hand] = {play: bomb for play, _, bomb in self._leads(hand, budget)}
        for play, readings, bomb in self.plays(hand, last, allowance != 0, budget):
            if play == hand:
                whole = True
                break
            rest = leads.get(hand - play)
            if rest is not None and (not rest or _spend(allowance, bomb) != 0):
                splits.append(readings)
        found = self._split_table[key] = (whole, splits)
        return found

    def counts(self, cards: Sequence[str]) -> int:
        """Cards as a packed hand (`pack`): the sum of each card's one at its rank's count."""
        ones = self._shared.card_ones
        total = 0
        for code in cards:
            one = ones.get(code)
            if one is None:
                one = ones[code] = 1 << (BITS * self.rules.values.index(self.rules.value_of(code)))
            total += one
        return total

    def cards(self, hand: Sequence[str], move: int) -> list[str]:
        """The cards of `hand` that make the play `move`: the first of each rank in the hand's order."""
        wanted = dict(_as_dict(self.rules.values, unpack(move, self.ranks)))
        out = []
        for code in hand:
            value = self.rules.value_of(code)
            if wanted.get(value, 0):
                wanted[value] -= 1
                out.append(code)
        return out


def _spend(allowance: int | None, bomb: bool) -> int | None:
    """The bombs a seat may still play after a play (None: any)."""
    return allowance - 1 if bomb and allowance is not None else allowance


# The budget of a cache refill inside `child`: the plays were generated (and counted) when `moves` asked.
_UNLIMITED = Budget(limit_ms=float("inf"), node_limit=1 << 62)


# -- 大怪路子 --------------------------------------------------------------------------------------------------

Hand = tuple[str, ...]


class DaguaiPosition(NamedTuple):
    """A 大怪路子 position: hands as sorted card codes, the seat to act, the play to answer (its seat and
    pattern), the active seats that passed since it, and the seats out so far in order."""

    hands: tuple[Hand, ...]
    to_act: int
    last_seat: int | None
    last: Any
    passed: frozenset[int]
    finished: tuple[int, ...]


def _team_out(order: Sequence[int]) -> int | None:
    for team in (0, 1):
        if sum(1 for s in order if team_of(s) == team) == daguai_engine.TEAM_SIZE:
            return team
    return None


def daguai_points(order: Sequence[int], team_fouls: Sequence[int]) -> list[int]:
    """Each team's points once a team is out, as DaguaiEngine.result scores them (A6, A7, A10.7–8)."""
    head_team = team_of(order[0])
    if _team_out(order) == head_team:
        natural = daguai_engine.CATCH_POINTS[daguai_engine.SEATS - len(order)]
    else:
        caught = daguai_engine.TEAM_SIZE - sum(1 for s in order if team_of(s) == head_team)
        natural = daguai_engine.CAUGHT_POINTS[caught]
    points = [natural if team == head_team else 0 for team in (0, 1)]
    fouled = [team for team in (0, 1) if team_fouls[team] >= daguai_engine.FOULS_TO_LOSE]
    if len(fouled) == 2:
        return [0, 0]
    if fouled:
        return [daguai_engine.FOUL_POINTS if team != fouled[0] else 0 for team in (0, 1)]
    return points


class DaguaiGame:
    """大怪路子 for the search: a team wins when the deal gives it more points than the other team (a deal that
    gives both 0 is a win for neither)."""

    bounds = (0, 1)
    seats = daguai_engine.SEATS

    def __init__(self, max_team: int, team_fouls: Sequence[int]):
        self.max_team, self.team_fouls = max_team, tuple(team_fouls)
        self.teams = tuple(team_of(s) for s in range(self.seats))
        self._plays: dict[tuple[Hand, Any], list[tuple[Hand, Any]]] = {}

    def key(self, pos: DaguaiPosition) -> DaguaiPosition:
        return pos

    def terminal(self, pos: DaguaiPosition) -> int | None:
        if _team_out(pos.finished) is None:
            return None
        points = daguai_points(pos.finished, self.team_fouls)
        return int(points[self.max_team] > points[1 - self.max_team])

    def maximising(self, pos: DaguaiPosition) -> bool:
        return team_of(pos.to_act) == self.max_team

    def plays(self, hand: Hand, last: Any, budget: Budget) -> list[tuple[Hand, Any]]:
        """Every distinct play of 1, 2, 3 or 5 cards the patterns read (the size of the play to answer when
        following) that beats it; the whole hand first, then the most cards."""
        found = self._plays.get((hand, last))
        if found is not None:
            return found
        sizes = (1, 2, 3, 5) if last is None else (last.size,)
        found = []
        for size in sizes:
            if size > len(hand):
                continue
            candidates = set(itertools.combinations(hand, size))
            budget.tick(1 + len(candidates) // 64)
            for cards in sorted(candidates):
                pattern = daguai.parse(list(cards))
                if pattern is not None and (last is None or daguai.beats(pattern, last)):
                    found.append((cards, pattern))
        found.sort(key=lambda p: (len(p[0]) != len(hand), -len(p[0])))
        self._plays[(hand, last)] = found
        return found

    def moves(self, pos: DaguaiPosition, budget: Budget) -> list[Hand | None]:
        seat = pos.to_act
        plays = [p[0] for p in self.plays(pos.hands[seat], pos.last, budget)]
        if pos.last_seat is None:
            return plays
        if team_of(pos.last_seat) == team_of(seat):
            return [None, *plays]
        return [*plays, None]

    def _next_active(self, hands: Sequence[Hand], seat: int) -> int:
        seats = self.seats
        return next((seat + step) % seats for step in range(1, seats + 1) if hands[(seat + step) % seats])

    def child(self, pos: DaguaiPosition, move: Hand | None) -> DaguaiPosition:
        seat = pos.to_act
        if move is None:
            return self._after_turn(pos.hands, seat, pos.last_seat, pos.last, pos.passed | {seat}, pos.finished)
        hands = list(pos.hands)
        rest = list(hands[seat])
        for code in move:
            rest.remove(code)
        hands[seat] = tuple(rest)
        pattern = next(p for c, p in self.plays(pos.hands[seat], pos.last, _UNLIMITED) if c == move)
        finished = pos.finished + ((seat,) if not rest else ())
        if not rest and _team_out(finished) is not None:  # a team is out: the result is fixed (A10.8)
            return DaguaiPosition(tuple(hands), seat, None, None, frozenset(), finished)
        return self._after_turn(tuple(hands), seat, seat, pattern, frozenset(), finished)

    def _after_turn(self, hands: tuple[Hand, ...], seat: int, last_seat: int | None, last: Any,
                    passed: frozenset[int], finished: tuple[int, ...]) -> DaguaiPosition:
        """DaguaiEngine._after_turn: a new round once every other active seat passed since the last play, led by
        its player or, when that player is out, the next active seat (接风, A5.5)."""
        assert last_seat is not None
        others = [s for s in range(self.seats) if hands[s] and s != last_seat]
        if all(s in passed for s in others):
            leader = last_seat if hands[last_seat] else self._next_active(hands, last_seat)
            return DaguaiPosition(hands, leader, None, None, frozenset(), finished)
        return DaguaiPosition(hands, self._next_active(hands, seat), last_seat, last, passed, finished)
