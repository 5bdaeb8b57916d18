"""快乐三打一 (上海四人斗地主; 4 players, two decks, 25 each + an 8-card kitty) — docs/rules/sandayi.md, seeds 000/002.

Phases: `bidding` (叫分: the first bidder must bid 1–3, each other seat once passes or bids higher, a 3 ends
it) → `play` (the dealer takes the kitty, may declare 摊打/报到 before the first lead, then leads) → `finished`.

Every player plays for themselves against the dealer (庄家) at 1 vs 3. Defenders may only play as many bombs as
their bidding allows (§1.5). Fouls are referee-recorded; a player's second foul in a deal decides the deal
against the offender's side (§1.8, §1.10a.8). Hand sizes are public exactly when ≤ 10, else as ">10"
(§1.10a.12). Record actions beyond the common ones: `bid` {value} and `declare` {kind: tanda | baodao}
(docs/record-format.md). Section numbers are docs/rules/sandayi.md's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated, Any

from marshmallow import Schema, fields, validate

from domain.games.sandayi.patterns import Pattern, beats, describe, is_bomb, parse
from domain.games.shedding import (
    BIG,
    LITTLE,
    SheddingState,  # the same rank values (§1.2), the same rounds
    card_value,
    following,
    pass_turn,
    rank_counts,
    rounds_view,
    take_play,
)
from domain.kernel.cards import cards_text, remove_from
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint, bid_value, check_turn
from domain.kernel.errors import illegal, seat_ref
from domain.kernel.options import OptionsResolver, switch, whole
from domain.kernel.values import DealResult, Doc

SEATS = 4
HAND_SIZE = 25
KITTY_SIZE = 8
TOP_BID = 3
FOULS_TO_LOSE = 2  # "两次以上犯规者，作输者处理" (§1.8), counted per player in the deal (§1.10a.8)
PUBLIC_COUNT_LIMIT = 10  # hand sizes are announced exactly at ≤ 10 cards (§1.6, §1.10a.12)
DECLARATIONS = {"tanda": ("摊打", "play face up"), "baodao": ("报到", "report a big hand")}


class SandayiOptions(Schema):
    """Ruleset switches of §1.4–1.9 with their defaults."""

    full_house_compare = fields.String(data_key="sdy.fullHouseCompare", load_default="tripleOnly",
                                       validate=validate.OneOf(["tripleOnly", "tripleThenPair"]))
    baodao_instant_win = switch(data_key="sdy.baodao.instantWin", load_default=False)
    baodao_lock_cards = switch(data_key="sdy.baodao.lockCards", load_default=False)
    baodao_per_set = switch(data_key="sdy.baodao.perSet", load_default=False)
    bomb_multiplier = fields.String(data_key="sdy.bombMultiplier", load_default="none",
                                    validate=validate.OneOf(["none", "x2each", "tiered"]))
    spring = switch(data_key="sdy.spring", load_default=False)
    foul_loss = fields.String(data_key="sdy.foulLoss", load_default="side",
                              validate=validate.OneOf(["side", "offenderOnly"]))
    # Read by the match layer (SandayiTable). The tiebreak switches of §1.9 (`sdy.tiebreak.*`) are the
    # tournament's declared tiebreak codes instead (projections/formats.py), like every other game's.
    early_round_deals = whole(data_key="sdy.earlyRoundDeals", load_default=8, validate=validate.OneOf([4, 8]))


OPTIONS = OptionsResolver(SandayiOptions())

ACTION_FIELDS: dict[str, set[str]] = {
    "bid": {"value"},
    "pass": set(),
    "declare": {"kind"},
    "play": {"cards"},
    "foul": {"code", "note"},
    "timeout": set(),
}


def bomb_factor(pattern: Pattern, rule: str) -> int:
    """`sdy.bombMultiplier` (§1.7): `none` (default; bombs multiply nothing), `x2each`, or `tiered` (EXT-LL:
    ×2 for a 6- or 7-card bomb, ×3 for an 8-card bomb or 天王炸弹)."""
    if rule == "x2each":
        return 2
    if rule == "tiered":
        return 3 if pattern.kind == "king_bomb" or pattern.size == 8 else 2 if pattern.size >= 6 else 1
    return 1


def baodao_sets(hand: list[str]) -> list[list[str]]:
    """The sets that qualify a 报到 (§1.5): all four jokers, and every rank held 7 or 8 times."""
    counts = rank_counts(hand)
    sets = [[c for c in hand if card_value(c) == rank] for rank, n in sorted(counts.items())
            if n >= 7 and rank not in (LITTLE, BIG)]
    if counts.get(LITTLE) == 2 and counts.get(BIG) == 2:
        sets.append([c for c in hand if c in ("LJ", "BJ")])
    return sets


@dataclass
class SandayiState(SheddingState):
    options: dict[str, Any]
    seats: list[str]
    first: int  # the first bidder (首先叫牌者)
    hands: list[list[str]]
    kitty: list[str]
    phase: str = "bidding"  # bidding | play | finished
    to_act: int | None = None
    bids: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, value; None = 不叫) in order
    high_bidder: int | None = None  # the highest bidder so far; the dealer once bidding is over
    dealer: int | None = None  # set when the dealer takes the kitty (a deal voided in bidding has none)
    bid: int = 0  # the winning bid
    toulu: bool = False  # 头撂: the first bidder opened with 3
    allowance: list[int | None] = field(default_factory=lambda: [None] * SEATS)  # bomb plays allowed; None = any
    declared: list[str] = field(default_factory=list)  # tanda / baodao, in the order declared
    baodao_count: int = 0  # qualifying sets when 报到 was declared
    locked: list[list[str]] = field(default_factory=list)  # `sdy.baodao.lockCards`: sets to play as intact bombs
    exposed: list[bool] = field(default_factory=lambda: [False] * SEATS)
    last_pattern: Pattern | None = None
    bombs_by_seat: list[int] = field(default_factory=lambda: [0] * SEATS)
    bomb_multiplier: int = 1
    # How it ended: `out` (a player went out), `foul` (a second foul), `instant` (报到 直接赢), `void`.
    ending: str | None = None
    winner: int | None = None  # the seat that went out
    offender: int | None = None  # the seat whose second foul decided the deal

class SandayiResult(DealResult, total=False):
    """A 快乐三打一 deal's result (docs/rules/sandayi.md §1.7–1.9): the dealer, the bid and the stake."""

    dealer: Annotated[int, Doc("the dealer's seat (the winning bidder)")]
    bid: Annotated[int, Doc("the winning bid")]
    toulu: Annotated[bool, Doc("头撂: the dealer bid the top at once")]
    declared: Annotated[list[str], Doc("摊打 / 报到 declared")]
    dealer_won: Annotated[bool, Doc("the dealer won the deal")]
    ending: Annotated[str, Doc("how the deal ended: out, points, foul, void")]
    offender: Annotated[int | None, Doc("the seat whose second foul ended the deal")]
    stake: Annotated[int, Doc("the stake per unit")]
    multipliers: Annotated[dict[str, Any], Doc("each doubling and their `total`")]
    bombs: Annotated[list[int], Doc("bombs played per seat")]



class SandayiEngine(Engine):
    """Bids, declarations, plays and fouls are all made openly at the table."""

    game, name_zh, name_en = "sandayi", "快乐三打一", "San Da Yi"
    seat_count, hand_size, kitty_size, decks, jokers = SEATS, HAND_SIZE, KITTY_SIZE, 2, True
    source, options, action_fields = "S000/S002", OPTIONS, ACTION_FIELDS
    fielded = frozenset({"bid", "declare"})
    # §1.8, S000/S002 犯规(一)–(三): no talking, pass by tapping, counts as the rules say, no peeking or gestures.
    foul_codes = (("talking", "说话", "talking"), ("pass_not_tapped", "不出未敲桌示意", "passed without tapping"),
                  ("count", "报张数不合规定", "count announced against the rules"),
                  ("peeking", "偷看他人牌", "peeking"), ("gesture", "暗示动作", "suggestive gesture"),
                  ("other", "其他", "other"))
    foul_rule = ("a player's second foul in a deal decides the deal (§1.8).", "同一局第二次犯规按输方处理（§1.8）。")

    # -- setup ---------------------------------------------------------------------------------------------

    def new_deal(self, setup: DealSetup) -> SandayiState:
        hands, kitty = self.checked_setup(setup)
        return SandayiState(self.resolve_options(setup.options), list(setup.seats), setup.first, hands, kitty,
                            to_act=setup.first)

    # -- actions -------------------------------------------------------------------------------------------

    def normalize_fields(self, kind: str, action: Action, out: Action) -> None:
        if kind == "bid":
            out["value"] = bid_value(action, TOP_BID)  # §1.10a.7: 0 is out of range, 不叫 is `pass`
        elif kind == "declare":
            what = action.get("kind")
            if what not in DECLARATIONS:
                raise illegal("bad_action", "A declaration is 摊打 or 报到.", "宣告只能是摊打或报到。", kind=repr(what))
            out["kind"] = what

    def act(self, state: SandayiState, action: Action) -> None:
        kind, seat = action["type"], action["seat"]
        if kind == "timeout":
            self._timeout(state, seat)
        elif kind == "declare":
            self._declare(state, seat, action["kind"])
        elif state.phase == "bidding":
            self._bid(state, seat, action.get("value"), kind)
        else:
            self._play_phase(state, seat, kind, action.get("cards"))

    # bidding (§1.5)

    def _bid(self, state: SandayiState, seat: int, value: int | None, kind: str) -> None:
        check_turn(state, seat)
        if kind not in ("bid", "pass"):
            # §1.5: bidding comes before play; a `play` here is neither a bid nor 不叫 (it was taken as a pass).
            raise illegal("bad_bid", "During bidding say a bid (1, 2 or 3) or 不叫 (pass); play starts after it.",
                          "叫分阶段只能叫分（1、2、3）或不叫（pass），叫分结束后才出牌。")
        if value is None and not state.bids:
            raise illegal("must_bid", "The first bidder must bid 1, 2 or 3 (最少叫1分) [S].",
                          "首先叫牌者必须叫 1、2 或 3 分，不能不叫（最少叫1分）。")
        if value is not None and value <= state.bid:
            raise illegal("bid_too_low", f"A bid must be higher than {state.bid}.", f"叫分必须高于 {state.bid} 分。",
                          highest=state.bid, value=value)
        state.bids.append((seat, value))
        if value is not None:
            state.bid = value
            state.high_bidder = seat
        if state.bid == TOP_BID or len(state.bids) == SEATS:  # a 3 ends bidding at once
            self._take_kitty(state)
        else:
            state.to_act = (seat + 1) % SEATS

    def _take_kitty(self, state: SandayiState) -> None:
        dealer = state.dealer = state.high_bidder
        assert dealer is not None  # the first bidder always bids: there is no deal without a dealer (无荒番局)
        state.toulu = state.bids[0] == (state.first, TOP_BID)
        said = dict(state.bids)
        for s in range(SEATS):
            if s == dealer or s not in said:
                state.allowance[s] = None  # the dealer, and a defender who never got a turn, bomb freely
            else:
                state.allowance[s] = said[s] or 1  # bid 1 → 1, bid 2 → 2, passed → 1 (§1.5 table)
        state.hands[dealer] = state.hands[dealer] + state.kitty  # only the dealer sees the kitty
        state.phase = "play"
        state.to_act = state.leader = dealer

    # declarations (§1.5, §1.10a.6)

    def _declare(self, state: SandayiState, seat: int, kind: str) -> None:
        if state.phase != "play" or seat != state.dealer or state.plays_by_seat[seat]:
            raise illegal("declare_not_allowed", "Only the dealer declares, after bidding and before the first lead.",
                          "只有庄家可以在叫分结束后、首次出牌之前宣布。")
        if kind in state.declared:
            raise illegal("already_declared", f"{DECLARATIONS[kind][0]} is declared at most once.",
                          f"{DECLARATIONS[kind][0]}只能宣布一次。")
        if kind == "tanda":
            if not state.toulu:
                raise illegal("tanda_not_allowed", "摊打 only in a 头撂 deal (the first bidder opened with 3) [S].",
                              "只有头撂（首先叫牌者直接叫 3 分）的庄家可以摊打。")
            state.exposed[seat] = True
            state.declared.append(kind)
            return
        sets = baodao_sets(state.hands[seat])
        if not sets:
            raise illegal("baodao_not_allowed", "报到 needs all four jokers or a bomb of 7 or more cards [S].",
                          "报到需要持有四张王或七张以上的炸弹。")
        state.declared.append(kind)
        state.baodao_count = len(sets)
        if state.options["sdy.baodao.lockCards"]:
            state.locked = sets  # shown, and to be played as intact bombs (EXT-M2)
        if state.options["sdy.baodao.instantWin"]:
            self._finish(state, "instant", winner=seat)  # EXT-M2 直接赢: a dealer win without the ×2

    # play (§1.6)

    def _play_phase(self, state: SandayiState, seat: int, kind: str, cards: list[str] | None) -> None:
        if kind == "bid":
            raise illegal("bidding_over", "Bidding is over.", "叫分已经结束。")
        check_turn(state, seat)
        if kind == "pass":
            if pass_turn(state, seat, SEATS):  # three passes: the last player leads a new round
                state.last_pattern = None
            return
        assert cards is not None
        rest = remove_from(state.hands[seat], cards, seat)
        pattern = parse(cards)
        if pattern is None:
            named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
            raise illegal("not_a_pattern", f"{named} is not a 三打一 pattern.", f"{named} 不是合法牌型。", cards=cards)
        if following(state, seat):
            assert state.last_pattern is not None
            if not beats(pattern, state.last_pattern, state.options["sdy.fullHouseCompare"]):
                named = cards_text(cards)  # as a message prints them: ♣4 ♠4 (only on a refusal)
                raise illegal("does_not_beat", f"{named} does not beat the last play.", f"{named} 管不上上一手牌。",
                              cards=cards, last=describe(state.last_pattern))
        if is_bomb(pattern):
            allowed = state.allowance[seat]
            if allowed is not None and state.bombs_by_seat[seat] >= allowed:
                raise illegal("bomb_allowance",
                              f"{seat_ref(seat)} may play {allowed} bomb(s) this deal and has played them (§1.5).",
                              f"{seat_ref(seat)} 本局只能出 {allowed} 次炸弹，已经出完。", allowed=allowed)
        self._check_locked(state, seat, cards)
        # Commit: every check passed.
        if seat == state.dealer and cards_in(state.locked, cards):
            state.locked = [s for s in state.locked if Counter(s) != Counter(cards)]  # played whole: unlocked
        if is_bomb(pattern):
            state.bombs_by_seat[seat] += 1  # every bomb and 天王炸弹 play counts, even to go out (§1.10a.5)
            state.bomb_multiplier *= bomb_factor(pattern, state.options["sdy.bombMultiplier"])
        state.last_pattern = pattern
        if take_play(state, seat, cards, rest, pattern, SEATS):
            self._finish(state, "out", winner=seat)  # the deal ends with the first player out (§1.6)

    def _check_locked(self, state: SandayiState, seat: int, cards: list[str]) -> None:
        """`sdy.baodao.lockCards`: a 报到 set leaves the hand only whole, as the bomb it is (EXT-M2)."""
        if seat != state.dealer:
            return
        for locked in state.locked:
            if any(c in locked for c in cards) and Counter(cards) != Counter(locked):
                raise illegal("locked_cards", f"{locked} was shown for 报到 and is played only as one bomb.",
                              f"{locked} 已报到亮出，只能整组作为炸弹打出。", locked=locked)

    def _timeout(self, state: SandayiState, seat: int) -> None:
        """Timeout [REC; the seeds set no clock]: the opening bid becomes the minimum 1, a later bidder passes, a
        follower passes, and a leader plays the lowest single it may play."""
        check_turn(state, seat)
        if state.phase == "bidding":
            self._bid(state, seat, None, "pass") if state.bids else self._bid(state, seat, 1, "bid")
            return
        if following(state, seat):
            self._play_phase(state, seat, "pass", None)
            return
        locked = {c for s in state.locked for c in s} if seat == state.dealer else set()
        free = [c for c in state.hands[seat] if c not in locked]
        lead = [min(free, key=card_value)] if free else min(state.locked, key=lambda s: card_value(s[0]))
        self._play_phase(state, seat, "play", list(lead))

    # fouls (§1.8, §1.10a.8)

    def record_foul(self, state: SandayiState, action: Action) -> None:
        super().record_foul(state, action)
        seat = action["seat"]
        if sum(1 for f in state.fouls if f["seat"] == seat) < FOULS_TO_LOSE:
            return
        if state.dealer is None:
            self._finish(state, "void", offender=seat)  # no dealer yet: void, redealt with the same first bidder
        else:
            self._finish(state, "foul", offender=seat)

    def _finish(self, state: SandayiState, ending: str, winner: int | None = None, offender: int | None = None
                ) -> None:
        state.phase = "finished"
        state.to_act = None
        state.ending = ending
        state.winner = winner
        state.offender = offender
        if state.current_round:
            state.rounds.append(state.current_round)
            state.current_round = []

    # -- queries -------------------------------------------------------------------------------------------

    def status(self, state: SandayiState) -> dict[str, Any]:
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished"}

    def legal_actions(self, state: SandayiState, seat: int) -> list[Action]:
        if state.phase == "finished" or state.to_act != seat:
            return []
        if state.phase == "bidding":
            passes = [{"seat": seat, "type": "pass"}] if state.bids else []
            return passes + [{"seat": seat, "type": "bid", "value": v} for v in range(state.bid + 1, TOP_BID + 1)]
        choices: list[Action] = []
        if seat == state.dealer and not state.plays_by_seat[seat]:
            if state.toulu and "tanda" not in state.declared:
                choices.append({"seat": seat, "type": "declare", "kind": "tanda"})
            if "baodao" not in state.declared and baodao_sets(state.hands[seat]):
                choices.append({"seat": seat, "type": "declare", "kind": "baodao"})
        if state.last_seat is not None and state.last_seat != seat:
            choices.append({"seat": seat, "type": "pass"})
        return choices

    def dealer_won(self, state: SandayiState) -> bool | None:
        if state.ending in (None, "void"):
            return None
        if state.ending == "foul":
            return state.offender != state.dealer
        return state.winner == state.dealer

    def multipliers(self, state: SandayiState) -> dict[str, int]:
        """M = 摊打 × 报到 × bombs × spring (§1.7). 报到's ×2 (×2 per set with `perSet`) counts only for a deal
        played out: not after 直接赢 (EXT-M2) and not when the dealer's foul decides it (§1.8 [REC])."""
        tanda = 2 if "tanda" in state.declared else 1
        baodao = 1
        if "baodao" in state.declared and state.ending not in ("instant",) and not (
                state.ending == "foul" and state.offender == state.dealer):
            baodao = 2 ** state.baodao_count if state.options["sdy.baodao.perSet"] else 2
        spring = 2 if state.options["sdy.spring"] and (self._spring(state) or self._anti_spring(state)) else 1
        total = tanda * baodao * state.bomb_multiplier * spring
        return {"tanda": tanda, "baodao": baodao, "bomb": state.bomb_multiplier, "spring": spring, "total": total}

    @staticmethod
    def _spring(state: SandayiState) -> bool:
        """春天 with `sdy.spring` [REC, as 斗地主: docs/rules/doudizhu.md §2.7a.7]: the dealer goes out and no
        defender made a play."""
        return state.ending == "out" and state.winner == state.dealer and all(
            state.plays_by_seat[s] == 0 for s in range(SEATS) if s != state.dealer)

    @staticmethod
    def _anti_spring(state: SandayiState) -> bool:
        """反春天 with `sdy.spring`: a defender goes out and the dealer made one play, the opening lead."""
        return (state.ending == "out" and state.dealer is not None and state.winner != state.dealer
                and state.plays_by_seat[state.dealer] == 1)

    def result(self, state: SandayiState) -> SandayiResult | None:
        if state.phase != "finished":
            return None
        zeros = [0] * SEATS
        if state.ending == "void":
            return {"redeal": True, "scores": zeros, "ending": "void", "offender": state.offender,
                    "seat_facts": {"dealer": zeros, "dealer_bid": zeros, "dealer_won_bid": zeros, "won": zeros}}
        dealer = state.dealer
        assert dealer is not None
        won = bool(self.dealer_won(state))
        m = self.multipliers(state)
        stake = 4 if won and state.toulu else state.bid  # u: 头撂 and a dealer win make it 4 (§1.7)
        unit = stake * m["total"]
        if state.ending == "out" and not won and "baodao" in state.declared:
            scores = zeros  # 报到 and a dealer loss: 0 for all four [S]
        elif state.ending == "foul" and state.offender != dealer and state.options["sdy.foulLoss"] == "offenderOnly":
            scores = [unit if s == dealer else -unit if s == state.offender else 0 for s in range(SEATS)]
        else:
            sign = 1 if won else -1
            scores = [sign * 3 * unit if s == dealer else -sign * unit for s in range(SEATS)]
        side_won = [int(won == (s == dealer)) for s in range(SEATS)]
        return {
            "scores": scores,
            "dealer": dealer,
            "bid": state.bid,
            "toulu": state.toulu,
            "declared": list(state.declared),
            "dealer_won": won,
            "ending": state.ending,
            "winner": state.winner,
            "offender": state.offender,
            "stake": stake,
            "multipliers": m,
            "bombs": list(state.bombs_by_seat),
            "seat_facts": {
                "dealer": [int(s == dealer) for s in range(SEATS)],
                "dealer_bid": [state.bid if s == dealer else 0 for s in range(SEATS)],
                "dealer_won_bid": [state.bid if s == dealer and won else 0 for s in range(SEATS)],
                "won": side_won,
            },
        }

    def view(self, state: SandayiState, viewpoint: Viewpoint) -> dict[str, Any]:
        finished = state.phase == "finished"
        seats = []
        for s in range(SEATS):
            count = len(state.hands[s])
            visible = viewpoint.sees_hand(s, state.exposed[s])
            seat_view: dict[str, Any] = {
                "seat": s,
                "name": state.seats[s],
                # Sizes above 10 are not announced (§1.10a.12); whoever sees the hand knows its size.
                "count": count if visible or count <= PUBLIC_COUNT_LIMIT else f">{PUBLIC_COUNT_LIMIT}",
                "exposed": state.exposed[s],
                "role": None if state.dealer is None else ("dealer" if s == state.dealer else "defender"),
                "bombs_allowed": state.allowance[s] if state.dealer is not None else None,
                "bombs_played": state.bombs_by_seat[s],
                "played": list(state.played[s]),
            }
            if visible:
                seat_view["hand"] = sorted(state.hands[s], key=card_value, reverse=True)
            seats.append(seat_view)
        dealer_known = state.dealer is not None
        kitty_visible = viewpoint.kind == "referee" or (viewpoint.kind == "seat" and dealer_known
                                                         and viewpoint.seat == state.dealer)
        return {
            **self.view_head(state, viewpoint),
            "seats": seats,
            "kitty": list(state.kitty) if kitty_visible else None,
            "dealer": state.dealer if dealer_known else None,
            "bid": state.bid,
            "toulu": state.toulu,
            "bidding": [{"seat": s, "type": "pass"} if v is None else {"seat": s, "type": "bid", "value": v}
                        for s, v in state.bids],
            "declared": list(state.declared),
            "locked": [list(s) for s in state.locked],
            **rounds_view(state, describe),
            "multipliers": self.multipliers(state),
            "fouls": list(state.fouls),
            "result": self.result(state) if finished else None,
        }


def cards_in(sets: list[list[str]], cards: list[str]) -> bool:
    return any(c in s for s in sets for c in cards)

