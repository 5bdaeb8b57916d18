"""The search's view of a ranks-only shedding game (斗地主, 三打一, 挖坑: each game's rules adapter is its
`domain/games/<game>/analysis.py`, which builds a `RankRules` from its own patterns module).

A position is canonical: in these games suits never matter to what a play is or beats (each game's rules §
on card order), so a hand is a tuple of counts per rank and the same ranks in other suits are one play. The
last play is kept only while it is to be answered.

Legality is the rules engine's: a candidate play is a sub-multiset of the hand in one of the game's pattern
families (`RankRules.candidates`, domain/solver/candidates.py: a superset of its patterns), and it is a play exactly
when the game's own patterns read it (`RankRules.readings`) and, when following, its own `answers` says it
beats the play on the table; the turn order mirrors the engines' (shedding.pass_turn and take_play).
tests/services/test_analysis.py checks every generated move and every successor against the engine itself on
positions of random legal deals.

Only plays and passes are moves. A timeout (the engines turn it into a pass or a forced lowest card), a
referee's foul, a 明牌 and a 三打一 declaration are not plays and are not listed (docs/analysis.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from domain.solver.packed import (
    _LOW_BITS,
    _SHARED,
    BITS,
    MASK,
    Counts,
    _rank_sum,
    _ranks_in,
    _Shared,
    _size,
    _within,
    as_dict,
    packed_submultisets,
    unpack,
)
from domain.solver.rankcore import RankCore, available
from domain.solver.search import CHECK_EVERY, ROOT_SHARE_NODES, UNLIMITED, Budget


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
    sequence_top: int  # the highest rank value a sequence may hold (A); the ranks above it (2, jokers) never chain
    value_of: Callable[[str], int]
    readings: Callable[[Counts], tuple[Any, ...]]  # () when the cards are no pattern
    answers: Callable[[tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]]  # () when they do not beat
    is_bomb: Callable[[tuple[Any, ...]], bool]
    # The transposition key over the ranks held (`RankGame.key`): for a game whose patterns, sequences aside, are
    # counts of a rank compared by rank (斗地主).
    sequences_only_of_counts: bool = False
    # The sub-multisets of a packed hand that can be plays, by pattern family (domain/solver/candidates.py): a
    # superset of its plays, which `readings` then sort out. None: every sub-multiset is tried.
    candidates: Callable[[int], Iterable[int]] | None = None


_SOURCES = 8  # hands a query reads leads off (`RankGame._leads`): its root hands, and a few in reserve


_new = tuple.__new__  # a RankPosition made without NamedTuple's own constructor (a call less per child)


@functools.cache
def _rank_bits(values: tuple[int, ...], top: int) -> tuple[int, int]:
    """The lowest bit of each rank's count for the ranks above A (2, jokers) and for the ranks 3..A."""
    return (sum(1 << (BITS * i) for i, v in enumerate(values) if v > top),
            sum(1 << (BITS * i) for i, v in enumerate(values) if v <= top))


class RankGame:
    """The search's view of a ranks-only shedding game, from the maximising team's side.

    `teams[seat]` is the side of each seat (斗地主: the landlord alone against the two farmers); the value is 1
    when the maximising team's seat goes out first, else 0."""

    bounds = (0, 1)
    # Whether `decide` runs on the compiled core (domain/solver/rankcore.py) when it is built; False keeps the
    # pure-Python search, the reference (the tests, the benchmark's before).
    compiled = available()
    # Cards in a hand from which the search tries its plays in its own order (`_node_of`; the compiled core is
    # given the same): every hand. It was 7; with the lower cards first among plays alike, the order from the
    # first card halves the compiled core's nodes on whole deals (docs/PERFORMANCE.md, "The compiled core"), and
    # in Python too it visits fewer nodes in no more time (twelve 9-card endgames: 斗地主 15,253 → 11,777 nodes,
    # 挖坑 26,805 → 10,019).
    reordered_from = 1
    # The compiled core searches in two orders taking turns (docs/analysis.md, "How it searches"): the nodes of the
    # first order's first turn (each turn then twice as many). A search that settles within it never turns.
    turn_share = 100_000

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
        self._sequences_only_of_counts = rules.sequences_only_of_counts
        self._always_kept, self._plain_bits = _rank_bits(rules.values, rules.sequence_top)
        self._compressed, self._held_hands, self._moves = shared.compressed, shared.held_hands, shared.moves
        self._plans, self._nodes, self._lead_bombs = shared.plans, shared.nodes, shared.lead_bombs
        self._greedy = shared.greedy_plays
        # Each seat's opponents (the seats of the other side), for the static wins.
        self._opponents = tuple(tuple(s for s in range(self.seats) if self.teams[s] != self.teams[seat])
                                for seat in range(self.seats))
        self._root: RankPosition | None = None  # the query's root (`set_root`): the compiled core is made of it
        self._core: RankCore | None = None

    @property
    def root_share_nodes(self) -> int:
        """The nodes `search.analyse` gives the position's own search first: the compiled core walks some 20
        times the Python search's nodes in the same time (docs/PERFORMANCE.md, "Reach"), and is given most of
        the budget (`root_share`): a cap its time share reaches first."""
        return ROOT_SHARE_NODES * (60 if self.compiled else 1)

    @property
    def root_share(self) -> float:
        """The part of the budget `search.analyse` gives the position's own search before the root's moves take
        turns: half in Python; nine tenths on the compiled core, whose own search already takes turns between
        two orders (docs/PERFORMANCE.md, "The compiled core": whole-deal positions whose proof needs 25–40
        million nodes are proven within 10 s instead of not at all)."""
        return 0.9 if self.compiled else 0.5

    def set_root(self, root: RankPosition) -> None:
        """The query's root: the compiled core (made at the first `decide`) lists its leads from its hands."""
        self._root = root
        self.add_sources(root.hands)

    def _core_for(self, pos: RankPosition) -> tuple[RankCore, int] | None:
        """The compiled core and the id of the play on the table, for a position it can search (its hands within
        the root's and its play to answer among the root's readings); None: the Python search."""
        core = self._core
        if core is None:
            if not self.compiled:
                return None
            root = self._root if self._root is not None else pos
            core = self._core = RankCore(self, root.hands, root.last)
        table = core.table_of(pos.last)
        if table is None or not core.holds(pos):
            return None
        return core, table

    def key(self, pos: RankPosition) -> Any:
        """The position for the transposition table. In 斗地主, once no hand can make a sequence (单顺, 双顺,
        三顺, 飞机) any more, only the order of the ranks still held matters (every other pattern is counts of a
        rank, compared by rank: the 斗地主 rules §2.2), so at a lead the ranks nobody holds are left out and two
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
        plain = tuple(shift for shift in shifts if self.rules.values[shift // BITS] <= self.rules.sequence_top)
        return plain, tuple(shift for shift in shifts if self.rules.values[shift // BITS] > self.rules.sequence_top)

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
            subsets = self._candidates(hand)
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

    def _candidates(self, hand: int) -> list[int]:
        """The sub-multisets of `hand` its leads are read from, in `packed_submultisets`' order (the order ties
        keep in `_order_of`): the game's pattern families when it names them (a superset of its plays, a few
        thousand where a large hand has hundreds of thousands of sub-multisets), else every one."""
        candidates = self.rules.candidates
        if candidates is None:
            return packed_submultisets(hand, self.ranks)
        ranks = self.ranks
        # packed_submultisets counts up the lowest rank's count outermost: the order of the count tuples.
        return sorted({play for play in candidates(hand) if play}, key=lambda play: unpack(play, ranks))

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
            plays = self.plays(pos.hands[seat], pos.last, bombs, UNLIMITED)
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
        against the exhaustive minimax (tests/services/test_analysis.py). Runs on the compiled core when it is
        built (`compiled`): the same search in C (domain/solver/rankcore.py), its own table in place of
        `decided`."""
        if self.compiled and pos[5] is None:  # a finished deal (`winner`) has its value at once
            found = self._core_for(pos)
            if found is not None:
                return found[0].decide(pos, found[1], budget)
        return self._decide(pos, decided, budget)

    def _decide(self, pos: RankPosition, decided: dict[Any, int], budget: Budget) -> int:
        """`decide` in Python: the reference the compiled core mirrors."""
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
        after, decide = self._after, self._decide
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
            if _size(hand) >= self.reordered_from:
                # The search's order (the answer still lists `moves`' order): the plays whose rest goes out in the
                # fewest greedy plays (`_greedy_plays`) first, then among those, the most cards, then the one
                # that leaves the fewest ranks in the hand, then the one of the lowest cards (a low kicker, a low
                # single: the high cards kept to win the lead back). Any order gives the same values; the fewest
                # ranks visits a third fewer nodes on the heaviest ≤11-card 斗地主 positions, the greedy plays
                # first a sixth fewer again on whole-deal ones, the lowest cards first and the order from the
                # first card (`reordered_from`) half again on the compiled core (docs/PERFORMANCE.md).
                greedy = self._greedy_plays
                plays.sort(key=lambda p: (p[0] != hand, p[2], greedy(hand - p[0], budget), -_size(p[0]),
                                          _ranks_in(hand - p[0]), _rank_sum(p[0])))
            steps = plays if last is None else [passing, *plays] if partner else [*plays, passing]
            found = self._nodes[cache_key] = (steps, *self._splits(hand, last, allowance, budget))
        return found

    def _greedy_plays(self, hand: int, budget: Budget) -> int:
        """How many leads empty `hand` when each takes the hand's first lead (the whole hand, else the most
        cards, bombs last): an estimate of how far a hand is from going out, for the search's order only (an
        upper bound on the fewest leads; no value depends on it)."""
        table = self._greedy
        count, seen = 0, []
        while hand:
            known = table.get(hand)
            if known is not None:
                count += known
                break
            seen.append(hand)
            hand -= self._leads(hand, budget)[0][0]
            count += 1
        for at, passed in enumerate(seen):  # each hand on the way is `count - at` leads from empty
            table[passed] = count - at
        return count

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
        wanted = dict(as_dict(self.rules.values, unpack(move, self.ranks)))
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
